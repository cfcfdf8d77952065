import { useState } from "react";
import { Button } from "#client/components/ui/button.tsx";
import { TextField } from "#client/components/ui/form.tsx";
import { Skeleton } from "#client/components/ui/misc.tsx";
import { useToast } from "#client/components/ui/toast.tsx";
import { ApiError } from "#client/lib/api-client.ts";
import { AdminLayout, Pager, tableClass, tdClass, thClass } from "./admin-layout.tsx";
import { useAdminLearners, useGrantAttempt, useRevokeCertificate, useSetTimeMultiplier } from "./api.ts";

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
        description: (error instanceof ApiError && error.serverMessage) || "Please try again.",
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

/** The learner's time multiplier on timed exams (an accommodation). */
function TimeMultiplier({ learner }: { learner: Learner }) {
  const [value, setValue] = useState(String(learner.timeMultiplier));
  const save = useSetTimeMultiplier();
  const toast = useToast();
  const number = Number(value);
  const valid = Number.isFinite(number) && number >= 1 && number <= 4;
  const submit = async () => {
    try {
      await save.mutateAsync({ userId: learner.id, timeMultiplier: number });
      toast({ title: "Exam Time Saved", description: `${learner.email}: ${number}x on timed exams` });
    } catch (error) {
      toast({
        title: "Not Saved",
        description: (error instanceof ApiError && error.serverMessage) || "Please try again.",
        variant: "destructive",
      });
    }
  };
  return (
    <div className="mt-2 flex flex-wrap items-end gap-2">
      <TextField
        label="Exam time multiplier"
        type="number"
        min={1}
        max={4}
        step={0.25}
        value={value}
        onChange={(e) => setValue(e.target.value)}
        className="w-36"
      />
      <Button size="sm" variant="secondary" disabled={!valid || save.isPending} onClick={() => void submit()}>
        Save<span className="sr-only"> exam time multiplier for {learner.email}</span>
      </Button>
    </div>
  );
}

function RevokeButton({ certificateId }: { certificateId: string }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const toast = useToast();
  const revokeCertificate = useRevokeCertificate();
  const revoke = async () => {
    try {
      await revokeCertificate.mutateAsync({ certificateId, reason });
      toast({ title: "Certificate Revoked", description: certificateId });
    } catch (error) {
      toast({
        title: "Not Revoked",
        description: (error instanceof ApiError && error.serverMessage) || "Please try again.",
        variant: "destructive",
      });
    }
  };
  if (!open)
    return (
      <Button size="sm" variant="secondary" onClick={() => setOpen(true)}>
        Revoke<span className="sr-only"> certificate {certificateId}</span>
      </Button>
    );
  return (
    <div className="flex flex-wrap items-end gap-2">
      <TextField label="Reason" value={reason} onChange={(e) => setReason(e.target.value)} className="w-48" />
      <Button size="sm" variant="danger" disabled={reason.trim().length < 3} onClick={() => void revoke()}>
        Confirm revoke
      </Button>
      <Button size="sm" variant="ghost" onClick={() => setOpen(false)}>
        Cancel
      </Button>
    </div>
  );
}

export default function AdminLearnersPage() {
  const [q, setQ] = useState("");
  const [page, setPage] = useState(1);
  const learners = useAdminLearners(q, page);
  return (
    <AdminLayout title="Learners">
      <TextField
        label="Search by name or e-mail"
        type="search"
        value={q}
        onChange={(e) => {
          setQ(e.target.value);
          setPage(1);
        }}
        className="max-w-md"
      />
      <div className="mt-4 overflow-x-auto">
        {learners.isPending ? (
          <Skeleton className="h-40" />
        ) : (
          <table className={tableClass}>
            <caption className="sr-only">Learners</caption>
            <thead>
              <tr>
                <th className={thClass}>Learner</th>
                <th className={thClass}>Courses, progress, attempts and certificates</th>
              </tr>
            </thead>
            <tbody>
              {(learners.data?.items ?? []).map((l) => (
                <tr key={l.id}>
                  <td className={tdClass}>
                    {l.firstName} {l.lastName}
                    <span className="block text-xs text-muted">
                      {l.email}
                      {l.role === "admin" ? " · admin" : ""}
                    </span>
                    <TimeMultiplier learner={l} />
                  </td>
                  <td className={tdClass}>
                    {l.courses.length === 0 ? (
                      <span className="text-muted">No enrolments</span>
                    ) : (
                      <ul className="space-y-2">
                        {l.courses.map((c) => (
                          <li key={c.courseId} className="flex flex-wrap items-center gap-3">
                            <span className="font-medium">{c.courseId}</span>
                            <span>{c.percent}%</span>
                            {c.certificateId ? (
                              <span className="text-xs">
                                {c.certificateId} · {c.certificateStatus}
                              </span>
                            ) : (
                              <span className="text-xs text-muted">No certificate</span>
                            )}
                            {c.certificateId && c.certificateStatus !== "revoked" && (
                              <RevokeButton certificateId={c.certificateId} />
                            )}
                            <Attempts learner={l} courseId={c.courseId} />
                          </li>
                        ))}
                      </ul>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      {learners.data && (
        <Pager
          page={learners.data.page}
          pageSize={learners.data.pageSize}
          total={learners.data.total}
          onPage={setPage}
        />
      )}
    </AdminLayout>
  );
}
