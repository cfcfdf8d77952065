import { AdminLayout } from "./admin-layout.tsx";
import { SearchableAdminTable, useAdminSearch } from "./admin-table.tsx";
import { useAuditLog } from "./api.ts";
import { AuditDetails } from "./audit-details.tsx";

type Entry = NonNullable<ReturnType<typeof useAuditLog>["data"]>["items"][number];

const when = (iso: string) =>
  `${new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" })} UTC`;

export default function AdminAuditPage() {
  const search = useAdminSearch();
  const log = useAuditLog(search.q, search.page);
  return (
    <AdminLayout title="Audit log">
      <SearchableAdminTable<Entry>
        searchLabel="Search by admin, action or target"
        search={search}
        data={log.data}
        caption="Audit log"
        empty="No admin actions match."
        rowKey={(e) => e.id}
        columns={[
          { header: "When", cell: (e) => when(e.createdAt), className: "md:whitespace-nowrap" },
          { header: "Who", cell: (e) => e.actorEmail },
          { header: "Action", cell: (e) => e.action, className: "font-mono" },
          { header: "Target", cell: (e) => e.target },
          { header: "Details", cell: (e) => <AuditDetails details={e.details} />, className: "md:min-w-56" },
        ]}
      />
    </AdminLayout>
  );
}
