import { zodResolver } from "@hookform/resolvers/zod";
import { type FormEvent, lazy, type ReactNode, Suspense, useState } from "react";
import { useForm } from "react-hook-form";
import { useLocation } from "react-router";
import { Button } from "#client/components/ui/button.tsx";
import { ConfirmDialog } from "#client/components/ui/confirm-dialog.tsx";
import { FormError, SelectField, TextField, useFormErrors } from "#client/components/ui/form.tsx";
import { Skeleton } from "#client/components/ui/misc.tsx";
import { useToast } from "#client/components/ui/toast.tsx";
import { refusal } from "#client/lib/api-client.ts";
import { useAssignCourseStaff, useCourseStaff, useUnassignCourseStaff } from "#client/lib/course-staff.ts";
import { useCourses } from "#client/lib/courses.ts";
import { useCurrentUser } from "#client/lib/session.ts";
import { routePatterns } from "#shared/client-routes.ts";
import { accommodationInputSchema, revokeCertificateInputSchema } from "#shared/schemas/admin.ts";
import type { StaffRole } from "#shared/schemas/auth.ts";
import { type GrantableRole, grantableRoleSchema, roleInputSchema } from "#shared/schemas/practical.ts";
import { courseStaffInputSchema } from "#shared/schemas/staff.ts";
import { AdminLayout } from "./admin-layout.tsx";
import { SearchableAdminTable, useAdminSearch } from "./admin-table.tsx";
import {
  useAdminLearners,
  useGrantAttempt,
  useResetSecondFactors,
  useRevokeCertificate,
  useSetRole,
  useSetTimeMultiplier,
} from "./api.ts";
import { useInlineFocus } from "./use-inline-focus.ts";

type Learner = NonNullable<ReturnType<typeof useAdminLearners>["data"]>["items"][number];

const when = (iso: string) => new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" });

/** Attempts per quiz and exam of one course, with a button to grant one more. */
function Attempts({ learner, courseId }: { learner: Learner; courseId: string }) {
  const grant = useGrantAttempt();
  const toast = useToast();
  const rows = learner.attempts.filter((a) => a.courseId === courseId);
  if (rows.length === 0) return null;
  const give = async (assessment: string, title: string) => {
    try {
      await grant.mutateAsync({ userId: learner.id, courseId, assessment });
      toast({ title: "Attempt Granted", description: `${learner.email}: one more attempt at ${title}` });
    } catch (error) {
      toast({
        title: "Not Granted",
        description: refusal(error),
        variant: "destructive",
      });
    }
  };
  return (
    <ul className="mt-1 w-full space-y-1 text-xs" data-testid={`attempts-${learner.id}-${courseId}`}>
      {rows.map((a) => (
        <li key={a.assessment} className="flex flex-wrap items-center gap-2">
          <span className="font-medium">{a.title}</span>
          <span>
            {a.attempts} attempt{a.attempts === 1 ? "" : "s"}
            {a.bestScore !== null && ` · best ${a.bestScore}%`}
            {a.passed ? " · passed" : ""}
          </span>
          <span className="text-muted">
            {a.attemptsLeft > 0
              ? `${a.attemptsLeft} left`
              : a.nextAttemptAt
                ? `none left until ${when(a.nextAttemptAt)}`
                : "none left"}
          </span>
          <Button size="sm" variant="ghost" pending={grant.isPending} onClick={() => void give(a.assessment, a.title)}>
            Grant one more<span className="sr-only"> attempt at {a.title}</span>
          </Button>
        </li>
      ))}
    </ul>
  );
}

/** A one-line form in a learner's row, with its error below the fields. */
function RowForm({
  onSubmit,
  error,
  className,
  children,
}: {
  onSubmit: (event: FormEvent) => Promise<void>;
  error: { errorId: string; message: readonly string[] };
  className: string;
  children: ReactNode;
}) {
  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className={className}>
      <div className="flex flex-wrap items-end gap-2">{children}</div>
      <div className="mt-2 empty:hidden">
        <FormError id={error.errorId} message={error.message} />
      </div>
    </form>
  );
}

/** The learner's time multiplier on timed exams (an accommodation). */
function TimeMultiplier({ learner }: { learner: Learner }) {
  const save = useSetTimeMultiplier();
  const toast = useToast();
  const form = useForm({
    resolver: zodResolver(accommodationInputSchema),
    defaultValues: { timeMultiplier: learner.timeMultiplier },
  });
  const error = useFormErrors(form);
  const submit = form.handleSubmit(async ({ timeMultiplier }) => {
    try {
      await save.mutateAsync({ userId: learner.id, timeMultiplier });
      toast({ title: "Exam Time Saved", description: `${learner.email}: ${timeMultiplier}x on timed exams` });
    } catch (failure) {
      const description = refusal(failure);
      toast({ title: "Not Saved", description, variant: "destructive" });
      error.show(description, "timeMultiplier");
    }
  });
  return (
    <RowForm onSubmit={submit} error={error} className="mt-2">
      <TextField
        {...error.field("timeMultiplier", { valueAsNumber: true })}
        label="Exam time multiplier"
        type="number"
        min={1}
        max={4}
        step={0.25}
        className="w-36"
      />
      <Button type="submit" size="sm" variant="secondary" pending={save.isPending}>
        Save<span className="sr-only"> exam time multiplier for {learner.email}</span>
      </Button>
    </RowForm>
  );
}

function RevokeButton({ certificateId }: { certificateId: string }) {
  const [open, setOpen] = useState(false);
  const toast = useToast();
  const revokeCertificate = useRevokeCertificate();
  const form = useForm({ resolver: zodResolver(revokeCertificateInputSchema), defaultValues: { reason: "" } });
  const error = useFormErrors(form);
  const triggerId = `revoke-${certificateId}`;
  const reasonId = `revoke-reason-${certificateId}`;
  const keepFocusInCell = useInlineFocus(open, triggerId, reasonId);
  const revoke = form.handleSubmit(async ({ reason }) => {
    const focusCell = keepFocusInCell();
    try {
      await revokeCertificate.mutateAsync({ certificateId, reason });
      focusCell();
      toast({ title: "Certificate Revoked", description: certificateId });
    } catch (failure) {
      const description = refusal(failure);
      toast({ title: "Not Revoked", description, variant: "destructive" });
      error.show(description, "reason");
    }
  });
  if (!open)
    return (
      <Button id={triggerId} size="sm" variant="secondary" onClick={() => setOpen(true)}>
        Revoke<span className="sr-only"> certificate {certificateId}</span>
      </Button>
    );
  return (
    <RowForm onSubmit={revoke} error={error} className="w-full">
      <TextField {...error.field("reason")} id={reasonId} label="Reason" className="w-48 max-w-full" />
      <Button type="submit" size="sm" variant="danger" pending={revokeCertificate.isPending}>
        Confirm revoke
      </Button>
      <Button
        size="sm"
        variant="ghost"
        onClick={() => {
          form.clearErrors();
          setOpen(false);
        }}
      >
        Cancel
      </Button>
    </RowForm>
  );
}

/**
 * Recovery of a member who lost every second factor (decision 0054): their two-factor sign-in and
 * passkeys go and every session ends; audited and e-mailed by the server. Never one's own account.
 */
function ResetFactorsButton({ learner }: { learner: Learner }) {
  const { user } = useCurrentUser();
  const toast = useToast();
  const reset = useResetSecondFactors();
  const triggerId = `reset-factors-${learner.id}`;
  if (!user || user.id === learner.id) return null;
  const confirm = async () => {
    try {
      await reset.mutateAsync(learner.id);
      toast({ title: "Sign-in factors reset", description: `${learner.email} was e-mailed.` });
    } catch (failure) {
      toast({ title: "Factors not reset", description: refusal(failure), variant: "destructive" });
    }
    // The row stays; focus goes back to its button, not to the page.
    document.getElementById(triggerId)?.focus();
  };
  return (
    <ConfirmDialog
      trigger={
        // Not disabled while the reset runs: focus comes back to it through the step-up prompt.
        <Button id={triggerId} size="sm" variant="secondary" className="mt-2">
          Reset sign-in factors<span className="sr-only"> of {learner.email}</span>
        </Button>
      }
      title={`Reset the sign-in factors of ${learner.email}?`}
      description="Their two-factor sign-in, backup codes and passkeys are removed and every session of theirs ends. They sign in with the password and set up a new factor; a staff role waits until they do. The reset is audited and they are e-mailed."
      confirmLabel="Reset sign-in factors"
      onConfirm={confirm}
    />
  );
}

const ROLE_LABELS: Record<GrantableRole, string> = {
  learner: "Learner",
  assessor: "Assessor",
  instructor: "Instructor",
};

/** Grants or removes a staff role (admins' own role changes only from the command line). */
function RoleForm({ learner }: { learner: Learner }) {
  const setRole = useSetRole();
  const toast = useToast();
  const current = grantableRoleSchema.safeParse(learner.role).data ?? "learner";
  const form = useForm({ resolver: zodResolver(roleInputSchema), defaultValues: { role: current } });
  const error = useFormErrors(form);
  if (learner.role === "admin") return null;
  const submit = form.handleSubmit(async ({ role }) => {
    try {
      await setRole.mutateAsync({ userId: learner.id, role });
      toast({ title: "Role Saved", description: `${learner.email}: ${ROLE_LABELS[role]}` });
    } catch (failure) {
      const description = refusal(failure);
      toast({ title: "Role Not Changed", description, variant: "destructive" });
      error.show(description, "role");
    }
  });
  return (
    <RowForm onSubmit={submit} error={error} className="mt-2">
      <SelectField {...error.field("role")} label="Role" className="w-36">
        {grantableRoleSchema.options.map((role) => (
          <option key={role} value={role}>
            {ROLE_LABELS[role]}
          </option>
        ))}
      </SelectField>
      <Button type="submit" size="sm" variant="secondary" pending={setRole.isPending}>
        Save<span className="sr-only"> role for {learner.email}</span>
      </Button>
    </RowForm>
  );
}

/** The courses an assessor or instructor works on: unassign each, or assign one more. */
function CourseAssignments({ learner, role }: { learner: Learner; role: StaffRole }) {
  const staff = useCourseStaff();
  const courses = useCourses();
  const assign = useAssignCourseStaff();
  const unassign = useUnassignCourseStaff();
  const toast = useToast();
  const form = useForm({
    resolver: zodResolver(courseStaffInputSchema),
    defaultValues: { userId: learner.id, role, courseId: "" },
  });
  const error = useFormErrors(form);
  const selectId = `assign-course-${learner.id}`;
  const mine = (staff.data?.items ?? []).filter((a) => a.userId === learner.id && a.role === role);
  const open = (courses.data ?? []).filter((c) => !mine.some((a) => a.courseId === c.id));
  const submit = form.handleSubmit(async (input) => {
    try {
      const done = await assign.mutateAsync(input);
      form.reset({ userId: learner.id, role, courseId: "" });
      toast({ title: "Course Assigned", description: `${learner.email}: ${done.courseTitle}` });
    } catch (failure) {
      const description = refusal(failure);
      toast({ title: "Not Assigned", description, variant: "destructive" });
      error.show(description, "courseId");
    }
  });
  const remove = async (courseId: string, title: string) => {
    try {
      await unassign.mutateAsync({ userId: learner.id, courseId, role });
      document.getElementById(selectId)?.focus();
      toast({ title: "Course Unassigned", description: `${learner.email}: ${title}` });
    } catch (failure) {
      toast({ title: "Not Unassigned", description: refusal(failure), variant: "destructive" });
    }
  };
  if (staff.isPending || courses.isPending) return <p className="mt-2 text-xs text-muted">Loading assignments…</p>;
  if (staff.isError || courses.isError)
    return (
      <p role="alert" className="mt-2 text-xs">
        Course assignments could not be loaded: {refusal(staff.error ?? courses.error)}
      </p>
    );
  return (
    <section className="mt-2" aria-label={`${ROLE_LABELS[role]} courses of ${learner.email}`}>
      {role === "assessor" && mine[0] && (
        <p className="text-xs" data-testid={`qualifications-${learner.id}`}>
          {mine[0].qualifications
            ? `Qualifications: ${mine[0].qualifications.credential}, ${mine[0].qualifications.awardingBody} (${mine[0].qualifications.credentialNumber})${mine[0].qualifications.coachingTraining ? `; coaching training: ${mine[0].qualifications.coachingTraining}` : ""}`
            : "No qualifications recorded."}
        </p>
      )}
      <p className="text-xs font-medium">{ROLE_LABELS[role]} of</p>
      {mine.length === 0 ? (
        <p className="text-xs text-muted">No courses yet: they see no course's work until assigned.</p>
      ) : (
        <ul className="space-y-1 text-xs" data-testid={`staff-${learner.id}`}>
          {mine.map((a) => (
            <li key={a.courseId} className="flex flex-wrap items-center gap-2">
              <span>{a.courseTitle}</span>
              <Button
                size="sm"
                variant="ghost"
                pending={unassign.isPending}
                onClick={() => void remove(a.courseId, a.courseTitle)}
              >
                Unassign<span className="sr-only"> {a.courseTitle}</span>
              </Button>
            </li>
          ))}
        </ul>
      )}
      {open.length > 0 && (
        <RowForm onSubmit={submit} error={error} className="mt-1">
          <SelectField {...error.field("courseId")} id={selectId} label="Assign to course" className="w-56 max-w-full">
            <option value="">Choose a course</option>
            {open.map((c) => (
              <option key={c.id} value={c.id}>
                {c.title}
              </option>
            ))}
          </SelectField>
          <Button type="submit" size="sm" variant="secondary" pending={assign.isPending}>
            Assign
            <span className="sr-only">
              {" "}
              {learner.email} as {role}
            </span>
          </Button>
        </RowForm>
      )}
    </section>
  );
}

const learnerCell = (l: Learner) => (
  <>
    {l.firstName} {l.lastName}
    <span className="block text-xs text-muted">
      {l.email}
      {l.role === "learner" ? "" : ` · ${l.role}`}
    </span>
    <TimeMultiplier learner={l} />
    <RoleForm learner={l} />
    <ResetFactorsButton learner={l} />
    {(l.role === "assessor" || l.role === "instructor") && <CourseAssignments key={l.role} learner={l} role={l.role} />}
  </>
);

const coursesCell = (l: Learner) =>
  l.courses.length === 0 ? (
    <span className="text-muted">No enrollments</span>
  ) : (
    <ul className="space-y-2">
      {l.courses.map((c) => (
        <li key={c.courseId} className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <span className="font-medium">{c.courseId}</span>
          <span>{c.percent}%</span>
          {c.certificateId ? (
            <span className="text-xs">
              {c.certificateId} · {c.certificateStatus}
            </span>
          ) : (
            <span className="text-xs text-muted">No certificate</span>
          )}
          {c.certificateId && c.certificateStatus !== "revoked" && <RevokeButton certificateId={c.certificateId} />}
          <Attempts learner={l} courseId={c.courseId} />
        </li>
      ))}
    </ul>
  );

const AdminModerationPage = lazy(() => import("./admin-moderation-page.tsx"));

/** Learners at /admin/learners; moderation of their posts at /questions/moderation (its own chunk). */
export default function AdminLearnersPages() {
  if (useLocation().pathname === routePatterns.questionsModeration)
    return (
      <Suspense fallback={<Skeleton className="h-96" />}>
        <AdminModerationPage />
      </Suspense>
    );
  return <AdminLearnersPage />;
}

function AdminLearnersPage() {
  const search = useAdminSearch();
  const learners = useAdminLearners(search.q, search.page);
  return (
    <AdminLayout title="Learners">
      <SearchableAdminTable<Learner>
        searchLabel="Search by name or e-mail"
        search={search}
        data={learners.data}
        caption="Learners"
        empty="No learners match."
        rowKey={(l) => l.id}
        columns={[
          { header: "Learner", cell: learnerCell },
          { header: "Courses, progress, attempts and certificates", cell: coursesCell },
        ]}
      />
    </AdminLayout>
  );
}
