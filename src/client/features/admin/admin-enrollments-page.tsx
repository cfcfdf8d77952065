import { type ChangeEvent, type FormEvent, useState } from "react";
import { Button } from "#client/components/ui/button.tsx";
import { TextField } from "#client/components/ui/form.tsx";
import { Card } from "#client/components/ui/misc.tsx";
import { useToast } from "#client/components/ui/toast.tsx";
import { ApiError } from "#client/lib/api-client.ts";
import { useCourses } from "#client/lib/courses.ts";
import type { BulkRowResult } from "#shared/schemas/admin.ts";
import { AdminLayout, tableClass, tdClass, thClass } from "./admin-layout.tsx";
import { useAdminEnroll, useBulkEnroll } from "./api.ts";

const RESULT_LABELS: Record<BulkRowResult["result"], string> = {
  enrolled: "Enrolled",
  pending: "Pending (no account yet)",
  "already-enrolled": "Already enrolled",
  "already-pending": "Already pending",
  "unknown-course": "Unknown course",
  "invalid-email": "Invalid e-mail",
};

function BulkEnrol() {
  const bulkEnroll = useBulkEnroll();
  const toast = useToast();
  const [csv, setCsv] = useState("");
  const [busy, setBusy] = useState(false);
  const [rows, setRows] = useState<BulkRowResult[] | null>(null);
  const onFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    if (file) setCsv(await file.text());
  };
  const submit = async () => {
    setBusy(true);
    try {
      const result = await bulkEnroll.mutateAsync(csv);
      setRows(result.rows);
      toast({
        title: "Bulk Enrollment Done",
        description:
          Object.entries(result.counts)
            .map(([k, v]) => `${v} ${RESULT_LABELS[k as BulkRowResult["result"]].toLowerCase()}`)
            .join(", ") || "No rows",
      });
    } catch (error) {
      toast({
        title: "Enrollment Failed",
        description: (error instanceof ApiError && error.serverMessage) || "Failed to enroll users.",
        variant: "destructive",
      });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card className="p-6">
      <h2 className="text-lg font-semibold">Bulk enrollment</h2>
      <p className="mt-1 text-sm text-muted">
        One <code>email,courseId</code> per line. Each row is handled on its own.
      </p>
      <label htmlFor="bulk-csv" className="mt-4 mb-1 block text-sm font-medium">
        CSV rows
      </label>
      <textarea
        id="bulk-csv"
        rows={6}
        value={csv}
        onChange={(e) => setCsv(e.target.value)}
        className="w-full rounded-lg border border-slate-300 p-3 font-mono text-sm"
        placeholder={"email,courseId\nana@example.com,nutrition-coach"}
      />
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <label className="text-sm">
          <span className="mr-2 font-medium">Or upload a CSV file</span>
          <input type="file" accept=".csv,text/csv" onChange={(e) => void onFile(e)} />
        </label>
        <Button onClick={() => void submit()} disabled={busy || !csv.trim()}>
          {busy ? "Enrolling..." : "Enroll All"}
        </Button>
      </div>
      {rows && (
        <div className="mt-4 overflow-x-auto">
          <table className={tableClass}>
            <caption className="sr-only">Bulk enrollment results</caption>
            <thead>
              <tr>
                <th className={thClass}>Line</th>
                <th className={thClass}>E-mail</th>
                <th className={thClass}>Course</th>
                <th className={thClass}>Result</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.line} data-testid={`bulk-row-${r.line}`}>
                  <td className={tdClass}>{r.line}</td>
                  <td className={tdClass}>{r.email}</td>
                  <td className={tdClass}>{r.courseId}</td>
                  <td className={tdClass}>
                    <span className="font-medium">{RESULT_LABELS[r.result]}</span>
                    <span className="block text-xs text-muted">{r.message}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}

export default function AdminEnrollmentsPage() {
  const courses = useCourses();
  const toast = useToast();
  const adminEnroll = useAdminEnroll();
  const [email, setEmail] = useState("");
  const [courseId, setCourseId] = useState("");
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!email.trim() || !courseId) {
      toast({
        title: "Missing Information",
        description: "Please enter both email and select a course.",
        variant: "destructive",
      });
      return;
    }
    setBusy(true);
    try {
      const result = await adminEnroll.mutateAsync({ userEmail: email.trim(), courseId });
      if (!result.success) {
        toast({
          title: "Enrollment Failed",
          description: result.message || "Failed to enroll user.",
          variant: "destructive",
        });
      } else {
        toast(
          result.outcome === "enrolled"
            ? { title: "Success!", description: `${email.trim()} has been enrolled in the selected course.` }
            : { title: "Enrollment Pending", description: result.message },
        );
        setEmail("");
        setCourseId("");
      }
    } catch (error) {
      toast({
        title: "Enrollment Failed",
        description: (error instanceof ApiError && error.serverMessage) || "Failed to enroll user.",
        variant: "destructive",
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <AdminLayout title="Manual enrollment">
      <div className="grid gap-6 lg:grid-cols-2">
        <Card className="h-fit p-6">
          <h2 className="text-lg font-semibold">Enroll a learner</h2>
          <form onSubmit={submit} className="mt-4 space-y-4" noValidate>
            <TextField
              label="User email"
              type="email"
              name="userEmail"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              hint="Someone without an account is enrolled when they sign up."
            />
            <div>
              <label htmlFor="course" className="mb-1 block text-sm font-medium">
                Course
              </label>
              <select
                id="course"
                value={courseId}
                onChange={(e) => setCourseId(e.target.value)}
                className="h-11 w-full rounded-lg border border-slate-300 bg-white px-3"
              >
                <option value="">Select a course</option>
                {(courses.data ?? []).map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.title}
                    {c.comingSoon ? " (coming soon)" : ""}
                  </option>
                ))}
              </select>
            </div>
            <Button type="submit" disabled={busy}>
              {busy ? "Enrolling..." : "Enroll User"}
            </Button>
          </form>
        </Card>
        <BulkEnrol />
      </div>
    </AdminLayout>
  );
}
