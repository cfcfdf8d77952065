import { type ReactNode, useState } from "react";
import { Link } from "react-router";
import { SelectField, TextField } from "#client/components/ui/form.tsx";
import { Skeleton } from "#client/components/ui/misc.tsx";
import { paths } from "#client/config/paths.ts";
import { useCourses } from "#client/lib/courses.ts";
import { routePatterns } from "#shared/client-routes.ts";
import { formatPrice } from "#shared/format.ts";
import { type AnalyticsOverview, QUESTION_WAIT_HOURS } from "#shared/schemas/analytics.ts";
import { AdminLayout } from "./admin-layout.tsx";
import { AdminTable } from "./admin-table.tsx";
import { ChartFigure, HorizontalBars, TimeChart, trendSentence } from "./analytics-chart.tsx";
import {
  analyticsCsvUrl,
  useAnalyticsAssessments,
  useAnalyticsOverview,
  useAnalyticsQuestions,
  useCourseFunnel,
} from "./api.ts";
import { CourseSelect, usePublishedVersions, VersionSelect } from "./version-select.tsx";

type Choice = "7" | "30" | "90" | "year" | "custom";
const CHOICES: { value: Choice; label: string }[] = [
  { value: "7", label: "Last 7 days" },
  { value: "30", label: "Last 30 days" },
  { value: "90", label: "Last 90 days" },
  { value: "year", label: "This year" },
  { value: "custom", label: "Custom dates" },
];

const DAY = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A period of whole UTC days ending today (both days included), or the custom one when it is valid. */
const isChoice = (value: string): value is Choice => CHOICES.some((c) => c.value === value);

function periodFor(choice: Choice, custom: { from: string; to: string }) {
  const today = Date.parse(`${isoDay(Date.now())}T00:00:00Z`);
  if (choice === "year") return { from: `${isoDay(today).slice(0, 4)}-01-01`, to: isoDay(today) };
  if (choice === "custom") return custom;
  return { from: isoDay(today - (Number(choice) - 1) * DAY), to: isoDay(today) };
}

const longDate = (iso: string) =>
  new Date(`${iso}T00:00:00Z`).toLocaleDateString("en-US", {
    month: "short",
    day: "numeric",
    year: "numeric",
    timeZone: "UTC",
  });
const percent = (value: number | null) => (value === null ? "n/a" : `${(Math.round(value * 1000) / 10).toFixed(1)}%`);
const count = (value: number) => value.toLocaleString("en-US");

/** The change from the previous period, in words (never by colour or an arrow alone). */
function change(current: number | null, previous: number | null, format: (v: number) => string) {
  if (current === null || previous === null) return `previous period: ${previous === null ? "n/a" : format(previous)}`;
  if (current === previous) return `same as the previous period (${format(previous)})`;
  if (previous === 0) return `up from ${format(0)} in the previous period`;
  const pct = Math.round((Math.abs(current - previous) / Math.abs(previous)) * 100);
  return `${current > previous ? "up" : "down"} ${pct}% from ${format(previous)} in the previous period`;
}

function Figure({ label, value, note }: { label: string; value: string; note: string }) {
  return (
    <div className="rounded-xl border border-line bg-surface p-3">
      <dt className="text-sm text-muted">{label}</dt>
      <dd className="text-2xl font-semibold">{value}</dd>
      <dd className="text-xs text-muted">{note}</dd>
    </div>
  );
}

function FigureGrid({ label, children }: { label: string; children: ReactNode }) {
  return (
    <dl aria-label={label} className="mt-3 grid grid-cols-2 gap-3 md:grid-cols-4">
      {children}
    </dl>
  );
}

function SalesSection({ data, from, to }: { data: AnalyticsOverview; from: string; to: string }) {
  const { current: c, previous: p } = data.sales;
  const money = (cents: number) => formatPrice(cents);
  const rows = data.sales.series;
  return (
    <section aria-labelledby="sales-title" className="mt-8">
      <h2 id="sales-title" className="font-serif text-2xl font-bold">
        Sales
      </h2>
      <FigureGrid label="Sales figures">
        <Figure label="Gross revenue" value={money(c.grossCents)} note={change(c.grossCents, p.grossCents, money)} />
        <Figure label="Refunds" value={money(c.refundsCents)} note={change(c.refundsCents, p.refundsCents, money)} />
        <Figure label="Net revenue" value={money(c.netCents)} note={change(c.netCents, p.netCents, money)} />
        <Figure label="Orders" value={count(c.orders)} note={change(c.orders, p.orders, count)} />
        <Figure
          label="Average order value"
          value={c.averageOrderCents === null ? "n/a" : money(c.averageOrderCents)}
          note={change(c.averageOrderCents, p.averageOrderCents, money)}
        />
        <Figure label="Coupon uses" value={count(c.couponUses)} note={change(c.couponUses, p.couponUses, count)} />
        <Figure label="Refund rate" value={percent(c.refundRate)} note={change(c.refundRate, p.refundRate, percent)} />
      </FigureGrid>
      <div className="mt-4 grid gap-4 lg:grid-cols-2">
        <ChartFigure
          id="sales-chart"
          title={`Revenue ${data.period.interval === "day" ? "by day" : "by week"}`}
          summary={trendSentence(
            "Net revenue",
            rows.map((r) => ({ date: r.date, value: r.netCents })),
            money,
          )}
          chart={
            <TimeChart
              rows={rows}
              format={money}
              series={[
                { key: "netCents", label: "Net revenue" },
                { key: "grossCents", label: "Gross revenue" },
                { key: "refundsCents", label: "Refunds" },
              ]}
            />
          }
          caption={`Revenue ${data.period.interval === "day" ? "by day" : "by week"}, ${longDate(from)} to ${longDate(to)}`}
          columns={[
            { header: data.period.interval === "day" ? "Day" : "Week from", cell: (r) => longDate(r.date) },
            { header: "Gross", cell: (r) => money(r.grossCents) },
            { header: "Refunds", cell: (r) => money(r.refundsCents) },
            { header: "Net", cell: (r) => money(r.netCents) },
            { header: "Orders", cell: (r) => count(r.orders) },
          ]}
          rows={rows}
          rowKey={(r) => r.date}
          csvUrl={analyticsCsvUrl("sales-over-time", from, to)}
        />
        <section aria-labelledby="by-course-title" className="rounded-xl border border-line bg-surface p-4">
          <h3 id="by-course-title" className="text-lg font-semibold">
            Sales by course
          </h3>
          <div className="mt-2">
            <AdminTable
              caption="Sales by course in the period"
              columns={[
                { header: "Course", cell: (r) => r.title },
                { header: "Gross", cell: (r) => money(r.grossCents) },
                { header: "Refunds", cell: (r) => money(r.refundsCents) },
                { header: "Net", cell: (r) => money(r.netCents) },
                { header: "Orders", cell: (r) => count(r.orders) },
              ]}
              rows={data.sales.byCourse}
              rowKey={(r) => r.courseId}
              empty="No sales in this period."
            />
          </div>
          <a
            className="mt-2 inline-block text-sm text-brand-700 underline"
            href={analyticsCsvUrl("sales-by-course", from, to)}
            download
          >
            Download CSV: Sales by course
          </a>
        </section>
      </div>
    </section>
  );
}

function LearnersSection({ data, from, to }: { data: AnalyticsOverview; from: string; to: string }) {
  const { current: c, previous: p } = data.learners;
  const rows = data.learners.series;
  const certs = data.certificates;
  return (
    <section aria-labelledby="learners-title" className="mt-8">
      <h2 id="learners-title" className="font-serif text-2xl font-bold">
        Learners
      </h2>
      <FigureGrid label="Learner figures">
        <Figure label="New accounts" value={count(c.newAccounts)} note={change(c.newAccounts, p.newAccounts, count)} />
        <Figure
          label="Enrollments"
          value={count(c.enrolments.total)}
          note={`${c.enrolments.paid} paid, ${c.enrolments.freeCoupon} free with a coupon, ${c.enrolments.admin} by an admin; ${change(c.enrolments.total, p.enrolments.total, count)}`}
        />
        <Figure
          label="Active learners"
          value={count(c.activeLearners)}
          note={change(c.activeLearners, p.activeLearners, count)}
        />
        <Figure
          label="Course completions"
          value={count(c.completions)}
          note={change(c.completions, p.completions, count)}
        />
        <Figure
          label="Certificates issued"
          value={count(c.certificatesIssued)}
          note={change(c.certificatesIssued, p.certificatesIssued, count)}
        />
        <Figure
          label="Certificates renewed"
          value={count(certs.current.renewed)}
          note={change(certs.current.renewed, certs.previous.renewed, count)}
        />
        <Figure
          label="Certificates revoked"
          value={count(certs.current.revoked)}
          note={change(certs.current.revoked, certs.previous.revoked, count)}
        />
        <Figure
          label="Certificates expiring in 90 days"
          value={count(certs.expiringSoon)}
          note="from today, whatever the period"
        />
      </FigureGrid>
      <p className="mt-2 text-sm">
        <Link className="text-brand-700 underline" to={paths.adminCertificates}>
          Certificates near expiry
        </Link>
      </p>
      <div className="mt-4">
        <ChartFigure
          id="learners-chart"
          title={`Learners ${data.period.interval === "day" ? "by day" : "by week"}`}
          summary={`${trendSentence(
            "Enrollments",
            rows.map((r) => ({ date: r.date, value: r.enrolments })),
            count,
          )} Active learners are counted once per ${data.period.interval}.`}
          chart={
            <TimeChart
              rows={rows}
              format={count}
              series={[
                { key: "activeLearners", label: "Active learners" },
                { key: "enrolments", label: "Enrollments" },
                { key: "newAccounts", label: "New accounts" },
              ]}
            />
          }
          caption={`Learners ${data.period.interval === "day" ? "by day" : "by week"}, ${longDate(from)} to ${longDate(to)}`}
          columns={[
            { header: data.period.interval === "day" ? "Day" : "Week from", cell: (r) => longDate(r.date) },
            { header: "New accounts", cell: (r) => count(r.newAccounts) },
            { header: "Enrollments", cell: (r) => count(r.enrolments) },
            { header: "Active learners", cell: (r) => count(r.activeLearners) },
            { header: "Completions", cell: (r) => count(r.completions) },
            { header: "Certificates", cell: (r) => count(r.certificatesIssued) },
          ]}
          rows={rows}
          rowKey={(r) => r.date}
          csvUrl={analyticsCsvUrl("learners-over-time", from, to)}
        />
      </div>
    </section>
  );
}

function FunnelSection({ from, to }: { from: string; to: string }) {
  const courses = (useCourses().data ?? []).filter((c) => !c.comingSoon);
  const [courseId, setCourseId] = useState("");
  const selected = courseId || courses[0]?.id || "";
  const [version, setVersion] = useState<number | undefined>();
  const versions = usePublishedVersions(selected);
  const funnel = useCourseFunnel(from, to, selected, version);
  const f = funnel.data;
  return (
    <section aria-labelledby="funnel-title" className="mt-8">
      <h2 id="funnel-title" className="font-serif text-2xl font-bold">
        Course funnel and where learners stop
      </h2>
      <p className="mt-1 max-w-3xl text-sm text-muted">
        The learners who enrolled in the course during the period, and how far each has got since.
      </p>
      <div className="mt-3 flex flex-wrap items-end gap-4">
        <CourseSelect
          courses={courses}
          value={selected}
          onChange={(id) => {
            setCourseId(id);
            setVersion(undefined);
          }}
        />
        <VersionSelect
          versions={versions}
          value={version}
          onChange={setVersion}
          everyLabel="Learners on every version"
        />
      </div>
      {!f ? (
        <Skeleton className="mt-4 h-64" />
      ) : (
        <div className="mt-4 grid gap-4 lg:grid-cols-2">
          <ChartFigure
            id="funnel-chart"
            title={`Funnel: ${f.title}`}
            summary={
              f.steps[0]!.count === 0
                ? "Nobody enrolled in this course in the period."
                : `${f.steps[0]!.count} enrolled; ${f.steps.at(-1)!.count} certified (${percent(f.steps.at(-1)!.shareOfEnrolled)}). ${
                    f.medianDaysToCertificate === null
                      ? "No certificate yet."
                      : `Median ${f.medianDaysToCertificate} days from enrollment to certificate.`
                  }`
            }
            chart={<HorizontalBars rows={f.steps} />}
            caption={`Funnel of ${f.title}, learners enrolled ${longDate(from)} to ${longDate(to)}`}
            columns={[
              { header: "Step", cell: (s) => s.label },
              { header: "Learners", cell: (s) => count(s.count) },
              { header: "Of enrolled", cell: (s) => percent(s.shareOfEnrolled) },
              { header: "Kept from the step before", cell: (s) => (s.shareKept === null ? "" : percent(s.shareKept)) },
            ]}
            rows={f.steps}
            rowKey={(s) => s.key}
            csvUrl={analyticsCsvUrl("funnel", from, to, f.courseId, version)}
          />
          <section aria-labelledby="stalls-title" className="rounded-xl border border-line bg-surface p-4">
            <h3 id="stalls-title" className="text-lg font-semibold">
              Where learners stop: {f.title}
            </h3>
            <p className="mt-1 text-sm text-muted">
              Of the learners who reached each module (passed every module before it), those who have not passed it and
              have done nothing in the course for more than {f.stallDays} days.
            </p>
            <div className="mt-2">
              <AdminTable
                caption={`Where learners stop in ${f.title}`}
                columns={[
                  { header: "Module", cell: (s) => s.title },
                  { header: "Reached", cell: (s) => count(s.reached) },
                  { header: `Stalled over ${f.stallDays} days`, cell: (s) => count(s.stalled) },
                  { header: "Share stalled", cell: (s) => percent(s.share) },
                ]}
                rows={f.stalls}
                rowKey={(s) => s.moduleId}
                empty="This course has no modules."
              />
            </div>
            <a
              className="mt-2 inline-block text-sm text-brand-700 underline"
              href={analyticsCsvUrl("stalls", from, to, f.courseId, version)}
              download
            >
              Download CSV: Where learners stop
            </a>
          </section>
        </div>
      )}
    </section>
  );
}

function AssessmentsSection({ from, to }: { from: string; to: string }) {
  const courses = (useCourses().data ?? []).filter((c) => !c.comingSoon);
  const [courseId, setCourseId] = useState("");
  const [version, setVersion] = useState<number | undefined>();
  const versions = usePublishedVersions(courseId);
  const assessments = useAnalyticsAssessments(from, to, courseId, version);
  return (
    <section aria-labelledby="assessments-title" className="mt-8">
      <h2 id="assessments-title" className="font-serif text-2xl font-bold">
        Assessments
      </h2>
      <p className="mt-1 max-w-3xl text-sm text-muted">
        Attempts made in the period at each quiz and final exam. How each question behaves is in{" "}
        <Link className="text-brand-700 underline" to={routePatterns.adminItemStatistics}>
          item statistics
        </Link>
        .
      </p>
      <div className="mt-3 flex flex-wrap items-end gap-4">
        <CourseSelect
          courses={courses}
          value={courseId}
          everyLabel="Every course"
          onChange={(id) => {
            setCourseId(id);
            setVersion(undefined);
          }}
        />
        {courseId && (
          <VersionSelect
            versions={versions}
            value={version}
            onChange={setVersion}
            everyLabel="Attempts on every version"
          />
        )}
      </div>
      <div className="mt-3">
        <AdminTable
          caption="Attempts, first-try pass rate and mean score per quiz and exam"
          columns={[
            { header: "Course", cell: (a) => a.courseTitle },
            { header: "Quiz or exam", cell: (a) => a.title },
            { header: "Attempts", cell: (a) => count(a.attempts) },
            { header: "Passed at first try", cell: (a) => `${percent(a.firstTryPassRate)} of ${a.firstAttempts}` },
            { header: "Mean score", cell: (a) => (a.meanScore === null ? "n/a" : `${a.meanScore}%`) },
            {
              header: "Items",
              cell: (a) => (
                <Link
                  className="text-brand-700 underline"
                  to={`${routePatterns.adminItemStatistics}?course=${encodeURIComponent(a.courseId)}`}
                >
                  Item statistics<span className="sr-only">: {a.title}</span>
                </Link>
              ),
            },
          ]}
          rows={assessments.data?.items}
          rowKey={(a) => `${a.courseId}:${a.assessment}`}
          empty="No quizzes or exams."
        />
      </div>
      <a
        className="mt-2 inline-block text-sm text-brand-700 underline"
        href={analyticsCsvUrl("assessments", from, to, courseId || undefined, version)}
        download
      >
        Download CSV: Assessments
      </a>
    </section>
  );
}

/** Hours and minutes, or days and hours past two days, of a wait given in seconds. */
function waitOf(seconds: number | null) {
  if (seconds === null) return "n/a";
  const hours = Math.floor(seconds / 3600);
  if (hours >= 48) return `${Math.floor(hours / 24)} d ${hours % 24} h`;
  return `${hours} h ${Math.floor((seconds % 3600) / 60)} min`;
}

function QuestionsSection({ from, to }: { from: string; to: string }) {
  const questions = useAnalyticsQuestions(from, to);
  return (
    <section aria-labelledby="questions-title" className="mt-8">
      <h2 id="questions-title" className="font-serif text-2xl font-bold">
        Questions
      </h2>
      <p className="mt-1 max-w-3xl text-sm text-muted">
        Learners' questions asked in the period on each course's lessons, how long they waited for a first answer from
        staff, and of those asked at least {QUESTION_WAIT_HOURS} hours ago, the share still without a staff answer{" "}
        {QUESTION_WAIT_HOURS} hours after asking.
      </p>
      <div className="mt-3">
        <AdminTable
          caption="Questions asked, median time to a first staff answer and share unanswered after 48 hours, per course"
          columns={[
            { header: "Course", cell: (q) => q.title },
            { header: "Questions asked", cell: (q) => count(q.asked) },
            { header: "Median time to first staff answer", cell: (q) => waitOf(q.medianSecondsToFirstStaffAnswer) },
            {
              header: `Unanswered after ${QUESTION_WAIT_HOURS} hours`,
              cell: (q) =>
                `${percent(q.shareUnansweredAfter48Hours)} (${q.unansweredAfter48Hours} of ${q.atLeast48HoursOld})`,
            },
          ]}
          rows={questions.data?.items}
          rowKey={(q) => q.courseId}
          empty="No questions asked in this period."
        />
      </div>
    </section>
  );
}

/** The admin landing page: the figures an owner runs the academy on, for a period against the one before. */
export default function AdminAnalyticsPage() {
  const [choice, setChoice] = useState<Choice>("30");
  const [custom, setCustom] = useState(() => periodFor("30", { from: "", to: "" }));
  const [draft, setDraft] = useState(custom);
  const { from, to } = periodFor(choice, custom);
  const overview = useAnalyticsOverview(from, to);
  const data = overview.data;
  const applyDraft = (next: { from: string; to: string }) => {
    setDraft(next);
    if (/^\d{4}-\d{2}-\d{2}$/.test(next.from) && /^\d{4}-\d{2}-\d{2}$/.test(next.to) && next.from <= next.to)
      setCustom(next);
  };
  return (
    <AdminLayout title="Analytics">
      <div className="flex flex-wrap items-end gap-4">
        <SelectField
          label="Period"
          value={choice}
          onChange={(e) => isChoice(e.target.value) && setChoice(e.target.value)}
        >
          {CHOICES.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </SelectField>
        {choice === "custom" && (
          <>
            <TextField
              label="From"
              type="date"
              value={draft.from}
              max={draft.to}
              onChange={(e) => applyDraft({ ...draft, from: e.target.value })}
            />
            <TextField
              label="To"
              type="date"
              value={draft.to}
              min={draft.from}
              onChange={(e) => applyDraft({ ...draft, to: e.target.value })}
            />
          </>
        )}
      </div>
      <p className="mt-2 text-sm text-muted" aria-live="polite" data-testid="period-description">
        {longDate(from)} to {longDate(to)}
        {data && data.period.from === from && data.period.to === to
          ? `, compared with ${longDate(data.period.previousFrom)} to ${longDate(data.period.previousTo)}.`
          : "."}
      </p>
      {overview.isError && (
        <p role="alert" className="mt-3 text-danger">
          The figures could not be loaded. Check the dates and try again.
        </p>
      )}
      {!data ? (
        <Skeleton className="mt-6 h-96" />
      ) : (
        <>
          <SalesSection data={data} from={data.period.from} to={data.period.to} />
          <LearnersSection data={data} from={data.period.from} to={data.period.to} />
        </>
      )}
      <FunnelSection from={from} to={to} />
      <AssessmentsSection from={from} to={to} />
      <QuestionsSection from={from} to={to} />
    </AdminLayout>
  );
}
