import { lazy, Suspense, useState } from "react";
import { useLocation, useSearchParams } from "react-router";
import { Skeleton } from "#client/components/ui/misc.tsx";
import { useCourses } from "#client/lib/courses.ts";
import { routePatterns } from "#shared/client-routes.ts";
import type { ItemStatistic } from "#shared/schemas/item-statistics.ts";
import { AdminLayout } from "./admin-layout.tsx";
import { itemStatisticsCsvUrl, useItemStatistics } from "./api.ts";
import { CourseSelect, VersionSelect } from "./version-select.tsx";

type SortKey = "order" | "responses" | "difficulty" | "discrimination";
const FLAG_TEXT = { "too-easy": "too easy", "too-hard": "too hard", "low-discrimination": "discriminates badly" };

/** Each option's share of responses as a bar; the key in green. */
function OptionChart({ item }: { item: ItemStatistic }) {
  const total = Math.max(1, item.responses);
  return (
    <ul className="w-64 max-w-full space-y-1.5" aria-label={`Option choices for ${item.questionId}`}>
      {item.options.map((o) => {
        const share = Math.round((100 * o.count) / total);
        return (
          <li key={o.id} className="text-xs">
            <span className="block break-words">
              <span className="font-semibold">{o.id}.</span> {o.text}
              {o.correct && <span className="font-semibold text-green-800"> (key)</span>}
            </span>
            <span className="flex items-center gap-1">
              <span className="h-2.5 flex-1 rounded bg-slate-100">
                <span
                  className={`block h-2.5 rounded ${o.correct ? "bg-green-600" : "bg-slate-500"}`}
                  style={{ width: `${share}%` }}
                />
              </span>
              <span className="shrink-0 text-right">
                {o.count} ({share}%)
              </span>
            </span>
          </li>
        );
      })}
    </ul>
  );
}

const value = (item: ItemStatistic, key: SortKey) =>
  key === "responses" ? item.responses : key === "difficulty" ? item.difficulty : item.discrimination;

function sorted(items: ItemStatistic[], key: SortKey, descending: boolean) {
  if (key === "order") return items;
  // Items without a figure ("not enough data") go last whatever the direction.
  return [...items].sort((a, b) => {
    const x = value(a, key);
    const y = value(b, key);
    if (x === null || y === null) return x === null ? (y === null ? 0 : 1) : -1;
    return descending ? y - x : x - y;
  });
}

const AdminAgreementPage = lazy(() => import("./admin-agreement-page.tsx"));

/** Item statistics at /admin/item-statistics; the assessor agreement report at /admin/agreement (its own chunk). */
export default function AssessmentQualityPages() {
  if (useLocation().pathname === routePatterns.adminAgreement)
    return (
      <Suspense fallback={<Skeleton className="mt-6 h-40" />}>
        <AdminAgreementPage />
      </Suspense>
    );
  return <AdminItemStatisticsPage />;
}

function AdminItemStatisticsPage() {
  const courses = (useCourses().data ?? []).filter((c) => !c.comingSoon);
  // The analytics page links here with ?course=<id>.
  const [params] = useSearchParams();
  const [courseId, setCourseId] = useState(params.get("course") ?? "");
  const selected = courseId || courses[0]?.id || "";
  const [version, setVersion] = useState<number | undefined>();
  const stats = useItemStatistics(selected, version);
  const [sort, setSort] = useState<{ key: SortKey; descending: boolean }>({ key: "order", descending: false });
  const header = (key: SortKey, label: string) => (
    <th className="p-2" aria-sort={sort.key === key ? (sort.descending ? "descending" : "ascending") : "none"}>
      <button
        type="button"
        className="font-semibold underline"
        onClick={() => setSort({ key, descending: sort.key === key ? !sort.descending : true })}
      >
        {label}
      </button>
    </th>
  );
  return (
    <AdminLayout title="Item statistics">
      <p className="max-w-3xl text-sm text-muted">
        From every recorded quiz and exam attempt: responses, difficulty (share correct), discrimination (point-biserial
        against the attempt's score) and how often each option was chosen. Flags: share correct above 90% or below 30%,
        discrimination below 0.2. Under {stats.data?.minResponses ?? 30} responses an item shows "not enough data".
      </p>
      <div className="mt-4 flex flex-wrap items-end gap-4">
        <CourseSelect
          courses={courses}
          value={selected}
          onChange={(id) => {
            setCourseId(id);
            setVersion(undefined);
          }}
        />
        {/* Each version's own bank and attempts; the latest until another is chosen. */}
        <VersionSelect
          versions={stats.data?.versions ?? []}
          value={version ?? stats.data?.version}
          onChange={setVersion}
        />
        {selected && (
          <a className="text-brand-700 underline" href={itemStatisticsCsvUrl(selected, version)} download>
            Download CSV
          </a>
        )}
      </div>
      {stats.data && (
        // On a phone (or large text) each item is a card; from md up, the sortable table.
        <ul className="mt-4 space-y-3 md:hidden" data-testid="item-cards">
          {sorted(stats.data.items, sort.key, sort.descending).map((item) => (
            <li
              key={`${item.assessment}-${item.questionId}`}
              className="rounded-xl border border-line bg-white p-3 text-sm"
            >
              <p className="text-xs break-words text-muted">
                {item.assessmentTitle} · {item.questionId}
              </p>
              <p className="break-words">{item.question}</p>
              <p className="mt-1">
                {item.responses} {item.responses === 1 ? "response" : "responses"} ·{" "}
                {item.enoughData
                  ? `${Math.round((item.difficulty ?? 0) * 100)}% correct · discrimination ${item.discrimination?.toFixed(2) ?? "n/a"}`
                  : "not enough data"}
              </p>
              {item.flags.length > 0 && <p className="font-medium">{item.flags.map((f) => FLAG_TEXT[f]).join(", ")}</p>}
              <div className="mt-2 max-w-full">
                <OptionChart item={item} />
              </div>
            </li>
          ))}
        </ul>
      )}
      {stats.data && (
        <div className="mt-4 hidden overflow-x-auto md:block">
          <table className="w-full text-left text-sm" data-testid="item-statistics">
            <caption className="sr-only">Item statistics, sortable by responses, difficulty and discrimination</caption>
            <thead>
              <tr className="border-b border-line">
                {header("order", "Item")}
                {header("responses", "Responses")}
                {header("difficulty", "Difficulty")}
                {header("discrimination", "Discrimination")}
                <th className="p-2">Options chosen</th>
                <th className="p-2">Flags</th>
              </tr>
            </thead>
            <tbody>
              {sorted(stats.data.items, sort.key, sort.descending).map((item) => (
                <tr key={`${item.assessment}-${item.questionId}`} className="border-b border-line align-top">
                  <td className="max-w-md p-2">
                    <span className="block text-xs text-muted">
                      {item.assessmentTitle} · {item.questionId}
                    </span>
                    {item.question}
                  </td>
                  <td className="p-2">{item.responses}</td>
                  <td className="p-2">
                    {item.enoughData ? `${Math.round((item.difficulty ?? 0) * 100)}%` : "not enough data"}
                  </td>
                  <td className="p-2">
                    {item.enoughData ? (item.discrimination?.toFixed(2) ?? "no variance") : "not enough data"}
                  </td>
                  <td className="p-2">
                    <OptionChart item={item} />
                  </td>
                  <td className="p-2">{item.flags.map((f) => FLAG_TEXT[f]).join(", ")}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </AdminLayout>
  );
}
