import { lazy, Suspense } from "react";
import { Link, useLocation } from "react-router";
import { buttonClasses } from "#client/components/ui/button.tsx";
import { PageContainer, Skeleton } from "#client/components/ui/misc.tsx";
import { paths } from "#client/config/paths.ts";
import { refusal } from "#client/lib/api-client.ts";
import { useDocumentMeta } from "#client/lib/use-document-meta.ts";
import { BRAND_NAME } from "#shared/constants.ts";
import { useReviewQueue } from "./api.ts";
import { CALIBRATION_PATH } from "./calibration-path.ts";

/** "3 days 4 hours", "5 hours". */
export function waitingText(hours: number) {
  const days = Math.floor(hours / 24);
  const rest = hours % 24;
  const h = `${rest} hour${rest === 1 ? "" : "s"}`;
  return days ? `${days} day${days === 1 ? "" : "s"} ${h}` : h;
}

const STAGE_TEXT = { first: "First", second: "Second (blind)", third: "Deciding" } as const;

const CalibrationRoute = lazy(() => import("./calibration-page.tsx"));

/** The review area: the queue at /review, calibration under /review/calibration (its own chunk). */
export default function ReviewArea() {
  const { pathname } = useLocation();
  if (pathname.startsWith(CALIBRATION_PATH))
    return (
      <Suspense fallback={<Skeleton className="mt-6 h-40" />}>
        <CalibrationRoute />
      </Suspense>
    );
  return <ReviewQueuePage />;
}

/** Submissions waiting for an assessor, oldest first. */
function ReviewQueuePage() {
  useDocumentMeta({
    title: `Review Queue | ${BRAND_NAME}`,
    description: "Practical submissions waiting for an assessor.",
  });
  const { data, isPending, isError, error } = useReviewQueue();
  return (
    <PageContainer className="py-10">
      <h1 className="text-3xl font-bold">Review Queue</h1>
      <p className="mt-2 text-muted">
        Practical submissions, oldest first. Learners are told to expect a review in about{" "}
        {data?.expectedReviewDays ?? "a few"} days. Claim one to review it: no one else can then. You see the courses
        you are assigned to and calibrated on.
      </p>
      <Link to={CALIBRATION_PATH} className={buttonClasses("secondary", "sm", "mt-3")}>
        Qualifications and Calibration
      </Link>
      {isPending && <Skeleton className="mt-6 h-40" />}
      {isError && (
        <p role="alert" className="mt-6 text-red-800">
          {refusal(error, "The queue could not be loaded.")}
        </p>
      )}
      {data && data.items.length === 0 && (
        <p className="mt-6">
          Nothing is waiting for review on your calibrated courses. New to a course? Score its exemplars on the{" "}
          <Link to={CALIBRATION_PATH} className="text-brand-700 underline">
            calibration page
          </Link>{" "}
          first.
        </p>
      )}
      {data && data.items.length > 0 && (
        <table className="mt-6 w-full text-left text-sm" data-testid="review-queue">
          <thead>
            <tr className="border-b border-line">
              <th className="p-2">Submission</th>
              <th className="p-2">Course</th>
              <th className="p-2">Attempt</th>
              <th className="p-2">Waiting</th>
              <th className="p-2">Mark</th>
              <th className="p-2">Status</th>
              <th className="p-2">
                <span className="sr-only">Action</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.items.map((item) => (
              <tr key={item.number} className="border-b border-line">
                <td className="p-2 font-semibold">#{item.number}</td>
                <td className="p-2">{item.courseTitle}</td>
                <td className="p-2">{item.attempt}</td>
                <td className="p-2">{waitingText(item.waitingHours)}</td>
                <td className="p-2">{STAGE_TEXT[item.stage]}</td>
                <td className="p-2">
                  {item.status === "submitted" ? "Waiting" : item.claimedByMe ? "Claimed by you" : "Claimed"}
                </td>
                <td className="p-2">
                  <Link
                    to={paths.reviewSubmission(item.number)}
                    className={buttonClasses(item.claimedByMe ? "primary" : "secondary", "sm")}
                  >
                    Open<span className="sr-only"> submission {item.number}</span>
                  </Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </PageContainer>
  );
}
