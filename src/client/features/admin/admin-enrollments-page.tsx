import { zodResolver } from "@hookform/resolvers/zod";
import { type ChangeEvent, useId } from "react";
import { useForm } from "react-hook-form";
import { Button } from "#client/components/ui/button.tsx";
import { FormError, SelectField, TextField, useFormErrors } from "#client/components/ui/form.tsx";
import { Card } from "#client/components/ui/misc.tsx";
import { useToast } from "#client/components/ui/toast.tsx";
import { refusal } from "#client/lib/api-client.ts";
import { useCourses } from "#client/lib/courses.ts";
import { adminEnrollInputSchema, type BulkRowResult, bulkEnrollInputSchema } from "#shared/schemas/admin.ts";
import { AdminLayout } from "./admin-layout.tsx";
import { AdminTable } from "./admin-table.tsx";
import { useAdminEnroll, useBulkEnroll } from "./api.ts";
import { RESULT_LABELS } from "./result-labels.ts";

const NO_ROWS = "Paste or upload at least one row.";

function BulkResults({ rows }: { rows: BulkRowResult[] }) {
  return (
    <div className="mt-4">
      <AdminTable<BulkRowResult>
        caption="Bulk enrollment results"
        empty={NO_ROWS}
        rows={rows}
        rowKey={(r) => String(r.line)}
        rowTestId={(r) => `bulk-row-${r.line}`}
        columns={[
          { header: "Line", cell: (r) => r.line },
          { header: "E-mail", cell: (r) => r.email || "None" },
          { header: "Course", cell: (r) => r.courseId || "None" },
          {
            header: "Result",
            cell: (r) => (
              <>
                <span className="font-medium">{RESULT_LABELS[r.result]}</span>
                <span className="block text-xs text-muted">{r.message}</span>
              </>
            ),
          },
        ]}
      />
    </div>
  );
}

/** The bulk route's body; a text of spaces only is refused here too, as having no rows. */
const bulkFormSchema = bulkEnrollInputSchema.extend({
  csv: bulkEnrollInputSchema.shape.csv.refine((csv) => csv.trim().length > 0, NO_ROWS),
});

function BulkEnrol() {
  const bulkEnroll = useBulkEnroll();
  const toast = useToast();
  const form = useForm({ resolver: zodResolver(bulkFormSchema), defaultValues: { csv: "" } });
  const error = useFormErrors(form);
  const csvId = useId();
  const onFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    if (file) form.setValue("csv", await file.text());
  };
  const submit = form.handleSubmit(({ csv }) =>
    bulkEnroll.mutate(csv, {
      onSuccess: (result) =>
        toast({
          title: "Bulk Enrollment Done",
          description:
            Object.entries(result.counts)
              .map(([k, v]) => `${v} ${RESULT_LABELS[k as BulkRowResult["result"]].toLowerCase()}`)
              .join(", ") || "No rows",
        }),
      onError: (failure) => {
        const description = refusal(failure, "Failed to enroll users.");
        toast({ title: "Enrollment Failed", description, variant: "destructive" });
        error.show(description, "csv");
      },
    }),
  );
  const { errorId: csvErrorId, ...csvField } = error.field("csv");
  return (
    <Card className="min-w-0 p-4 sm:p-6">
      <h2 id="bulk-enrollment" className="text-lg font-semibold">
        Bulk enrollment
      </h2>
      <form onSubmit={submit} noValidate aria-labelledby="bulk-enrollment">
        <p className="mt-1 text-sm text-muted">
          One <code>email,courseId</code> per line. Each row is handled on its own.
        </p>
        <div className="mt-4 empty:hidden">
          <FormError id={error.errorId} message={error.message} />
        </div>
        <label htmlFor={csvId} className="mt-4 mb-1 block text-sm font-medium">
          CSV rows
        </label>
        <textarea
          {...csvField}
          id={csvId}
          aria-invalid={csvErrorId ? true : undefined}
          aria-describedby={csvErrorId}
          rows={6}
          className="w-full rounded-lg border border-slate-300 p-3 font-mono text-sm aria-[invalid=true]:border-danger"
          placeholder={"email,courseId\nana@example.com,nutrition-coach"}
        />
        <div className="mt-3 flex flex-wrap items-center gap-3">
          <label className="min-w-0 text-sm">
            <span className="mr-2 font-medium">Or upload a CSV file</span>
            <input type="file" accept=".csv,text/csv" onChange={(e) => void onFile(e)} className="max-w-full" />
          </label>
          <Button type="submit" pending={bulkEnroll.isPending}>
            {bulkEnroll.isPending ? "Enrolling..." : "Enroll All"}
          </Button>
        </div>
      </form>
      {bulkEnroll.data && <BulkResults rows={bulkEnroll.data.rows} />}
    </Card>
  );
}

function EnrolOne() {
  const courses = useCourses();
  const toast = useToast();
  const adminEnroll = useAdminEnroll();
  const form = useForm({
    resolver: zodResolver(adminEnrollInputSchema),
    defaultValues: { userEmail: "", courseId: "" },
  });
  const error = useFormErrors(form);

  const refuse = (description: string, ...fields: ("userEmail" | "courseId")[]) => {
    toast({ title: "Enrollment Failed", description, variant: "destructive" });
    error.show(description, ...fields);
  };

  const submit = form.handleSubmit(
    (input) =>
      adminEnroll.mutate(input, {
        onSuccess: (result) => {
          if (!result.success) return refuse(result.message || "Failed to enroll user.", "userEmail");
          toast(
            result.outcome === "enrolled"
              ? { title: "Success!", description: `${input.userEmail} has been enrolled in the selected course.` }
              : { title: "Enrollment Pending", description: result.message },
          );
          form.reset();
        },
        onError: (failure) => refuse(refusal(failure, "Failed to enroll user.")),
      }),
    // Both fields share the schema's one message: "Please enter both email and select a course."
    (errors) => {
      const description = errors.userEmail?.message ?? errors.courseId?.message;
      if (description) toast({ title: "Missing Information", description, variant: "destructive" });
    },
  );

  return (
    <Card className="h-fit min-w-0 p-4 sm:p-6">
      <h2 id="enrol-one" className="text-lg font-semibold">
        Enroll a learner
      </h2>
      <form onSubmit={submit} className="mt-4 space-y-4" noValidate aria-labelledby="enrol-one">
        <FormError id={error.errorId} message={error.message} />
        <TextField
          {...error.field("userEmail")}
          label="User email"
          type="email"
          hint="Someone without an account is enrolled when they sign up."
        />
        <SelectField {...error.field("courseId")} label="Course">
          <option value="">Select a course</option>
          {(courses.data ?? []).map((c) => (
            <option key={c.id} value={c.id}>
              {c.title}
              {c.comingSoon ? " (coming soon)" : ""}
            </option>
          ))}
        </SelectField>
        <Button type="submit" pending={adminEnroll.isPending}>
          {adminEnroll.isPending ? "Enrolling..." : "Enroll User"}
        </Button>
      </form>
    </Card>
  );
}

export default function AdminEnrollmentsPage() {
  return (
    <AdminLayout title="Manual enrollment">
      <div className="grid gap-6 lg:grid-cols-2">
        <EnrolOne />
        <BulkEnrol />
      </div>
    </AdminLayout>
  );
}
