import { useState } from "react";
import { TextField } from "#client/components/ui/form.tsx";
import { Skeleton } from "#client/components/ui/misc.tsx";
import { AdminLayout, Pager, tableClass, tdClass, thClass } from "./admin-layout.tsx";
import { useAuditLog } from "./api.ts";

export default function AdminAuditPage() {
  const [q, setQ] = useState("");
  const [page, setPage] = useState(1);
  const log = useAuditLog(q, page);
  return (
    <AdminLayout title="Audit log">
      <TextField
        label="Search by admin, action or target"
        type="search"
        value={q}
        onChange={(e) => {
          setQ(e.target.value);
          setPage(1);
        }}
        className="max-w-md"
      />
      <div className="mt-4 overflow-x-auto">
        {log.isPending ? (
          <Skeleton className="h-40" />
        ) : (
          <table className={tableClass}>
            <caption className="sr-only">Audit log</caption>
            <thead>
              <tr>
                <th className={thClass}>When</th>
                <th className={thClass}>Who</th>
                <th className={thClass}>Action</th>
                <th className={thClass}>Target</th>
                <th className={thClass}>Details</th>
              </tr>
            </thead>
            <tbody>
              {(log.data?.items ?? []).map((e) => (
                <tr key={e.id}>
                  <td className={tdClass}>{new Date(e.createdAt).toLocaleString("en-US", { timeZone: "UTC" })} UTC</td>
                  <td className={tdClass}>{e.actorEmail}</td>
                  <td className={`${tdClass} font-mono`}>{e.action}</td>
                  <td className={tdClass}>{e.target}</td>
                  <td className={`${tdClass} font-mono text-xs`}>
                    {Object.keys(e.details).length ? JSON.stringify(e.details) : ""}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      {log.data && <Pager page={log.data.page} pageSize={log.data.pageSize} total={log.data.total} onPage={setPage} />}
    </AdminLayout>
  );
}
