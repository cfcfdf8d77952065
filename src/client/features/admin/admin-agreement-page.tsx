import { Card, Skeleton } from "#client/components/ui/misc.tsx";
import { refusal } from "#client/lib/api-client.ts";
import type { AgreementReport } from "#shared/schemas/practical.ts";
import { AdminLayout } from "./admin-layout.tsx";
import { AdminTable } from "./admin-table.tsx";
import { useAssessorAgreement } from "./api.ts";

type Row = AgreementReport["rows"][number];
const share = (x: number | null) => (x === null ? "n/a" : `${Math.round(x * 100)}%`);
const kappa = (x: number | null) => (x === null ? "n/a" : x.toFixed(2));

/**
 * How far assessors agree (docs/decisions/0053): per practical and assessor, exact agreement and
 * quadratic-weighted kappa per criterion over blind double marks, time to review, share passed, sample sizes.
 */
export default function AdminAgreementPage() {
  const { data, isPending, isError, error } = useAssessorAgreement();
  return (
    <AdminLayout title="Assessor agreement">
      <p className="mt-2 text-muted">
        {data ? `${share(data.doubleMarkShare)} of first marks, and every borderline one, ` : "A share of first marks "}
        are marked blind by a second assessor. Agreement compares each assessor with the other mark of the same
        submission; kappa is Cohen's, weighted quadratically over the criterion's levels (n/a with no spread).
      </p>
      {isPending && <Skeleton className="mt-6 h-40" />}
      {isError && (
        <p role="alert" className="mt-6 text-red-800">
          {refusal(error, "The report could not be loaded.")}
        </p>
      )}
      {data && data.rows.length === 0 && <p className="mt-6">No practical has been marked yet.</p>}
      {data?.rows.map((r: Row) => (
        <Card key={`${r.courseId}-${r.assessorId}`} className="mt-6 p-4" data-testid="agreement-row">
          <h2 className="text-lg font-semibold">
            {r.courseTitle}: {r.assessorEmail}
          </h2>
          <p className="mt-1 text-sm">
            {r.marks} mark{r.marks === 1 ? "" : "s"}, {share(r.sharePassed)} passed; median time to review{" "}
            {r.medianReviewHours === null ? "n/a" : `${r.medianReviewHours} hours`}; {r.pairs} double-marked
            {r.pairs ? `, same decision in ${share(r.decisionAgreement)}` : ""}.
          </p>
          <AdminTable
            caption={`Agreement per criterion: ${r.courseTitle}, ${r.assessorEmail}`}
            rows={r.criteria}
            rowKey={(c) => c.criterionId}
            empty="No criteria."
            columns={[
              { header: "Criterion", cell: (c) => c.title },
              { header: "Pairs (sample)", cell: (c) => c.pairs },
              { header: "Exact agreement", cell: (c) => share(c.exactAgreement) },
              { header: "Weighted kappa", cell: (c) => kappa(c.weightedKappa) },
            ]}
          />
        </Card>
      ))}
    </AdminLayout>
  );
}
