import { zodResolver } from "@hookform/resolvers/zod";
import { type FormEvent, type ReactNode, useState } from "react";
import { useForm } from "react-hook-form";
import { Button } from "#client/components/ui/button.tsx";
import { FormError, TextField, useFormErrors } from "#client/components/ui/form.tsx";
import { useToast } from "#client/components/ui/toast.tsx";
import { refusal } from "#client/lib/api-client.ts";
import { accommodationInputSchema, revokeCertificateInputSchema } from "#shared/schemas/admin.ts";
import { AdminLayout } from "./admin-layout.tsx";
import { SearchableAdminTable, useAdminSearch } from "./admin-table.tsx";
import { useAdminLearners, useGrantAttempt, useRevokeCertificate, useSetRole, useSetTimeMultiplier } from "./api.ts";
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
          <Button size="sm" variant="ghost" disabled={grant.isPending} onClick={() => void give(a.assessment, a.title)}>
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
      <Button type="submit" size="sm" variant="secondary" disabled={save.isPending}>
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
      <Button type="submit" size="sm" variant="danger" disabled={revokeCertificate.isPending}>
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

/** Grants or removes the assessor role (admins' own role changes only from the command line). */
function RoleButton({ learner }: { learner: Learner }) {
  const setRole = useSetRole();
  const toast = useToast();
  if (learner.role === "admin") return null;
  const assessor = learner.role === "assessor";
  const change = async () => {
    try {
      await setRole.mutateAsync({ userId: learner.id, role: assessor ? "learner" : "assessor" });
      toast({ title: assessor ? "Assessor Role Removed" : "Assessor Role Granted", description: learner.email });
    } catch (error) {
      toast({ title: "Role Not Changed", description: refusal(error), variant: "destructive" });
    }
  };
  return (
    <Button size="sm" variant="ghost" disabled={setRole.isPending} onClick={() => void change()}>
      {assessor ? "Remove assessor role" : "Make assessor"}
      <span className="sr-only"> for {learner.email}</span>
    </Button>
  );
}

const learnerCell = (l: Learner) => (
  <>
    {l.firstName} {l.lastName}
    <span className="block text-xs text-muted">
      {l.email}
      {l.role === "admin" ? " · admin" : l.role === "assessor" ? " · assessor" : ""}
    </span>
    <TimeMultiplier learner={l} />
    <RoleButton learner={l} />
  </>
);

const coursesCell = (l: Learner) =>
  l.courses.length === 0 ? (
    <span className="text-muted">No enrolments</span>
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

export default function AdminLearnersPage() {
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
