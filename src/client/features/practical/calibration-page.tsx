import { type FormEvent, useState } from "react";
import { Link, useParams } from "react-router";
import { Button, buttonClasses } from "#client/components/ui/button.tsx";
import { FormError, useFormError } from "#client/components/ui/form.tsx";
import { Card, PageContainer, Skeleton } from "#client/components/ui/misc.tsx";
import { useToast } from "#client/components/ui/toast.tsx";
import { paths } from "#client/config/paths.ts";
import { refusal } from "#client/lib/api-client.ts";
import { useDocumentMeta } from "#client/lib/use-document-meta.ts";
import { BRAND_NAME } from "#shared/constants.ts";
import { formatLongDate } from "#shared/format.ts";
import type { AssessorProfile } from "#shared/schemas/practical.ts";
import { useCalibration, useSaveAssessorProfile } from "./api.ts";
import { CALIBRATION_PATH } from "./calibration-path.ts";
import ExemplarPage from "./exemplar-page.tsx";

type ProfileField = "credential" | "awardingBody" | "credentialNumber" | "coachingTraining";
const FIELDS: { name: ProfileField; label: string; hint?: string }[] = [
  { name: "credential", label: "Credential" },
  { name: "awardingBody", label: "Awarding body" },
  { name: "credentialNumber", label: "Credential number" },
  {
    name: "coachingTraining",
    label: "Coaching training (optional)",
    hint: "Needed to assess a practical that scores a coaching conversation: the course, its provider and hours.",
  },
];

/** The assessor's qualifications, which an admin checks before assigning them a course. */
function ProfileForm({ profile }: { profile: AssessorProfile | null }) {
  const toast = useToast();
  const form = useFormError<ProfileField>();
  const [values, setValues] = useState<Record<ProfileField, string>>({
    credential: profile?.credential ?? "",
    awardingBody: profile?.awardingBody ?? "",
    credentialNumber: profile?.credentialNumber ?? "",
    coachingTraining: profile?.coachingTraining ?? "",
  });
  const save = useSaveAssessorProfile({
    onSuccess: () =>
      toast({ title: "Qualifications Saved", description: "An admin sees them when assigning courses." }),
    onError: (error) => form.show(refusal(error, error.message), "credential"),
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    form.clear();
    for (const f of FIELDS.slice(0, 3)) if (!values[f.name].trim()) return form.show(`Fill in "${f.label}".`, f.name);
    save.mutate({ ...values, coachingTraining: values.coachingTraining.trim() || null });
  };
  return (
    <form onSubmit={onSubmit} noValidate className="mt-3 space-y-3">
      <FormError id={form.errorId} message={form.message} />
      {FIELDS.map((f) => {
        const field = form.field(f.name);
        return (
          <div key={f.name}>
            <label htmlFor={field.id} className="mb-1 block text-sm font-medium">
              {f.label}
            </label>
            {f.hint && (
              <p id={`${field.id}-hint`} className="text-sm text-muted">
                {f.hint}
              </p>
            )}
            <input
              id={field.id}
              value={values[f.name]}
              onChange={(e) => setValues({ ...values, [f.name]: e.target.value })}
              aria-describedby={
                [field.errorId, f.hint ? `${field.id}-hint` : ""].filter(Boolean).join(" ") || undefined
              }
              aria-invalid={!!field.errorId}
              className="w-full rounded-lg border border-slate-300 p-2 text-base"
            />
          </div>
        );
      })}
      <Button type="submit" pending={save.isPending}>
        {save.isPending ? "Saving..." : "Save Qualifications"}
      </Button>
    </form>
  );
}

/** Qualifications and calibration at /review/calibration; one exemplar at /review/calibration/:courseId/:exemplarId (one chunk). */
export default function CalibrationRoute() {
  const [courseId, exemplarId] = (useParams()["*"] ?? "").split("/");
  return courseId && exemplarId ? <ExemplarPage courseId={courseId} exemplarId={exemplarId} /> : <CalibrationPage />;
}

/** Qualifications, and calibration on each assigned course's exemplars before its live queue opens. */
function CalibrationPage() {
  useDocumentMeta({
    title: `Qualifications and Calibration | ${BRAND_NAME}`,
    description: "Record your qualifications and score each practical's exemplars before live reviews.",
  });
  const { data, isPending, isError, error } = useCalibration();
  return (
    <PageContainer className="max-w-3xl py-10">
      <Link to={paths.reviewQueue} className="text-sm text-brand-700 underline">
        Back to the queue
      </Link>
      <h1 className="mt-4 text-3xl font-bold">Qualifications and Calibration</h1>
      <p className="mt-2 text-muted">
        Each course's live queue opens once you have scored every one of its exemplars within one level of the agreed
        score on every criterion. Calibration lasts a year, and starts again when the rubric changes.
      </p>
      {isPending && <Skeleton className="mt-6 h-40" />}
      {isError && (
        <p role="alert" className="mt-6 text-red-800">
          {refusal(error, "Your calibration could not be loaded.")}
        </p>
      )}
      {data && (
        <>
          <Card className="mt-6 p-5">
            <h2 className="text-xl font-semibold">Your qualifications</h2>
            <ProfileForm profile={data.profile} />
          </Card>
          <h2 className="mt-8 text-xl font-semibold">Your courses</h2>
          {data.courses.length === 0 && (
            <p className="mt-2">
              No course is assigned to you yet: an admin assigns courses once your qualifications are recorded.
            </p>
          )}
          {data.courses.map((c) => (
            <Card key={c.courseId} className="mt-4 p-5" data-testid={`calibration-${c.courseId}`}>
              <h3 className="text-lg font-semibold">
                {c.courseTitle}: {c.practicalTitle}
              </h3>
              <p className="mt-1 text-sm">
                <span className="font-medium">An assessor must hold:</span> {c.assessorRequirements}
              </p>
              <p className="mt-2 font-medium" role="status">
                {c.calibrated && c.calibratedUntil
                  ? `Calibrated until ${formatLongDate(c.calibratedUntil)}: the live queue is open.`
                  : "Not calibrated yet: score every exemplar to open the live queue."}
              </p>
              <ul className="mt-3 space-y-2">
                {c.exemplars.map((e) => (
                  <li key={e.id} className="flex flex-wrap items-center gap-3">
                    <Link
                      to={`${CALIBRATION_PATH}/${c.courseId}/${e.id}`}
                      className={buttonClasses(e.result ? "secondary" : "primary", "sm")}
                    >
                      Exemplar {e.number}
                    </Link>
                    <span className="text-sm">
                      {e.result
                        ? e.result.withinOne
                          ? "Scored: within one level on every criterion"
                          : "Scored: more than one level off on a criterion; score it again"
                        : "Not scored yet"}
                    </span>
                  </li>
                ))}
              </ul>
            </Card>
          ))}
        </>
      )}
    </PageContainer>
  );
}
