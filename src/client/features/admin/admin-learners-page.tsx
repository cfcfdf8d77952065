import { useState } from "react";
import { Button } from "#client/components/ui/button.tsx";
import { TextField } from "#client/components/ui/form.tsx";
import { Skeleton } from "#client/components/ui/misc.tsx";
import { useToast } from "#client/components/ui/toast.tsx";
import { ApiError } from "#client/lib/api-client.ts";
import { AdminLayout, Pager, tableClass, tdClass, thClass } from "./admin-layout.tsx";
import { useAdminLearners, useRevokeCertificate } from "./api.ts";

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
                <th className={thClass}>Courses, progress and certificates</th>
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
