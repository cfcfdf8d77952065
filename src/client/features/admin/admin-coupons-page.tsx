import { type FormEvent, useState } from "react";
import { Button } from "#client/components/ui/button.tsx";
import { ConfirmDialog } from "#client/components/ui/confirm-dialog.tsx";
import { FormError, SelectField, TextField, useFormError } from "#client/components/ui/form.tsx";
import { Card } from "#client/components/ui/misc.tsx";
import { useToast } from "#client/components/ui/toast.tsx";
import { ApiError, refusal } from "#client/lib/api-client.ts";
import { useCourses } from "#client/lib/courses.ts";
import { formatLongDate, formatPrice } from "#shared/format.ts";
import type { AdminCoupon } from "#shared/schemas/admin.ts";
import { AdminLayout } from "./admin-layout.tsx";
import { AdminTable } from "./admin-table.tsx";
import { useAdminCoupons, useCreateCoupon, useDeactivateCoupon } from "./api.ts";

function couponStatus(coupon: { active: boolean; expiresAt: string | null }) {
  if (!coupon.active) return "Inactive";
  if (coupon.expiresAt && new Date(coupon.expiresAt).getTime() <= Date.now()) return "Expired";
  return "Active";
}

type CouponField = "code" | "value" | "max";
const EMPTY = { code: "", kind: "percent", value: "", courseId: "", expires: "", max: "" };

/** What is wrong with the form, and where; null when it can be sent. */
function problem(form: typeof EMPTY): [string, CouponField] | null {
  if (!/^[A-Za-z0-9_-]{3,64}$/.test(form.code.trim())) return ["Codes are 3-64 letters, digits, '-' or '_'.", "code"];
  const value = Number(form.value);
  if (form.kind === "percent" && !(form.value.trim() && Number.isInteger(value) && value >= 1 && value <= 100))
    return ["Give a percent from 1 to 100.", "value"];
  if (form.kind === "amount" && !(form.value.trim() && value >= 0.01 && value <= 10_000))
    return ["Give an amount in dollars from 0.01 to 10,000, e.g. 12.50.", "value"];
  const max = Number(form.max);
  if (form.max.trim() && !(Number.isInteger(max) && max >= 1)) return ["Maximum uses is a whole number from 1.", "max"];
  return null;
}

export default function AdminCouponsPage() {
  const coupons = useAdminCoupons();
  const courses = useCourses();
  const toast = useToast();
  const createCoupon = useCreateCoupon();
  const deactivateCoupon = useDeactivateCoupon();
  const error = useFormError<CouponField>();
  const [form, setForm] = useState(EMPTY);
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [k]: e.target.value }));
  const courseTitle = (id: string | null) =>
    id === null ? "Any" : (courses.data?.find((c) => c.id === id)?.title ?? id);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const wrong = problem(form);
    if (wrong) return error.show(...wrong);
    error.clear();
    const value = Number(form.value);
    try {
      await createCoupon.mutateAsync({
        code: form.code.trim(),
        ...(form.kind === "percent" ? { percentOff: value } : { amountOff: Math.round(value * 100) }),
        ...(form.courseId ? { courseId: form.courseId } : {}),
        ...(form.expires ? { expiresAt: new Date(`${form.expires}T23:59:59Z`).toISOString() } : {}),
        ...(form.max ? { maxRedemptions: Number(form.max) } : {}),
      });
      toast({ title: "Coupon Created", description: form.code.trim().toUpperCase() });
      setForm(EMPTY);
    } catch (failure) {
      const description = refusal(failure);
      toast({ title: "Coupon Not Saved", description, variant: "destructive" });
      // A taken code is the one server refusal the form's own checks cannot foresee.
      if (failure instanceof ApiError && failure.status === 409) error.show(description, "code");
      else error.show(description);
    }
  };

  const deactivate = async (id: string, code: string) => {
    try {
      await deactivateCoupon.mutateAsync(id);
      toast({ title: "Coupon Deactivated", description: `${code} can no longer be used.` });
    } catch (failure) {
      toast({ title: "Coupon Not Deactivated", description: refusal(failure), variant: "destructive" });
    }
  };

  return (
    <AdminLayout title="Coupons">
      <Card className="p-4 sm:p-6">
        <h2 id="new-coupon" className="text-lg font-semibold">
          New coupon
        </h2>
        <form
          onSubmit={(e) => void submit(e)}
          noValidate
          aria-labelledby="new-coupon"
          className="mt-4 grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3"
        >
          <div className="empty:hidden sm:col-span-2 lg:col-span-3">
            <FormError id={error.errorId} message={error.message} />
          </div>
          <TextField {...error.field("code")} label="Code" required value={form.code} onChange={set("code")} />
          <SelectField label="Discount type" value={form.kind} onChange={set("kind")}>
            <option value="percent">Percent off</option>
            <option value="amount">Dollars off</option>
          </SelectField>
          <TextField
            {...error.field("value")}
            label={form.kind === "percent" ? "Percent (1-100)" : "Dollars"}
            type="number"
            min={form.kind === "percent" ? 1 : 0.01}
            max={form.kind === "percent" ? 100 : undefined}
            step={form.kind === "percent" ? 1 : 0.01}
            required
            value={form.value}
            onChange={set("value")}
          />
          <SelectField label="Only for course (optional)" value={form.courseId} onChange={set("courseId")}>
            <option value="">Any course</option>
            {(courses.data ?? []).map((c) => (
              <option key={c.id} value={c.id}>
                {c.title}
              </option>
            ))}
          </SelectField>
          <TextField label="Expires (optional)" type="date" value={form.expires} onChange={set("expires")} />
          <TextField
            {...error.field("max")}
            label="Maximum uses (optional)"
            type="number"
            min={1}
            value={form.max}
            onChange={set("max")}
          />
          <div className="sm:col-span-2 lg:col-span-3">
            <Button type="submit" disabled={createCoupon.isPending}>
              Create Coupon
            </Button>
          </div>
        </form>
      </Card>
      <div className="mt-6">
        <AdminTable<AdminCoupon>
          caption="Coupons"
          empty="No coupons yet."
          rows={coupons.data}
          rowKey={(c) => c.id}
          columns={[
            { header: "Code", cell: (c) => c.code, className: "font-mono" },
            {
              header: "Discount",
              cell: (c) => (c.percentOff ? `${c.percentOff}% off` : `${formatPrice(c.amountOff ?? 0)} off`),
            },
            { header: "Course", cell: (c) => courseTitle(c.courseId) },
            { header: "Expires", cell: (c) => (c.expiresAt ? formatLongDate(c.expiresAt) : "Never") },
            {
              header: "Redemptions",
              cell: (c) => `${c.redemptionCount}${c.maxRedemptions !== null ? ` / ${c.maxRedemptions}` : ""}`,
            },
            { header: "Status", cell: couponStatus },
            {
              header: "Actions",
              hideHeader: true,
              cell: (c) =>
                c.active && (
                  <ConfirmDialog
                    trigger={
                      <Button size="sm" variant="secondary">
                        Deactivate<span className="sr-only"> {c.code}</span>
                      </Button>
                    }
                    title={`Deactivate ${c.code}?`}
                    description="Learners will no longer be able to use this coupon. This cannot be undone."
                    confirmLabel="Deactivate Coupon"
                    onConfirm={() => void deactivate(c.id, c.code)}
                  />
                ),
            },
          ]}
        />
      </div>
    </AdminLayout>
  );
}
