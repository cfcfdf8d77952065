import { type FormEvent, useState } from "react";
import { Button } from "#client/components/ui/button.tsx";
import { ConfirmDialog } from "#client/components/ui/confirm-dialog.tsx";
import { TextField } from "#client/components/ui/form.tsx";
import { Card, Skeleton } from "#client/components/ui/misc.tsx";
import { useToast } from "#client/components/ui/toast.tsx";
import { ApiError } from "#client/lib/api-client.ts";
import { useCourses } from "#client/lib/courses.ts";
import { formatLongDate, formatPrice } from "#shared/format.ts";
import { AdminLayout, tableClass, tdClass, thClass } from "./admin-layout.tsx";
import { useAdminCoupons, useCreateCoupon, useDeactivateCoupon } from "./api.ts";

function couponStatus(coupon: { active: boolean; expiresAt: string | null }) {
  if (!coupon.active) return "Inactive";
  if (coupon.expiresAt && new Date(coupon.expiresAt).getTime() <= Date.now()) return "Expired";
  return "Active";
}

export default function AdminCouponsPage() {
  const coupons = useAdminCoupons();
  const courses = useCourses();
  const toast = useToast();
  const createCoupon = useCreateCoupon();
  const deactivateCoupon = useDeactivateCoupon();
  const [form, setForm] = useState({ code: "", kind: "percent", value: "", courseId: "", expires: "", max: "" });
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [k]: e.target.value }));
  const fail = (error: unknown) =>
    toast({
      title: "Coupon Not Saved",
      description: (error instanceof ApiError && error.serverMessage) || "Please try again.",
      variant: "destructive",
    });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
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
      setForm({ code: "", kind: "percent", value: "", courseId: "", expires: "", max: "" });
    } catch (error) {
      fail(error);
    }
  };

  const deactivate = async (id: string, code: string) => {
    try {
      await deactivateCoupon.mutateAsync(id);
      toast({ title: "Coupon Deactivated", description: `${code} can no longer be used.` });
    } catch (error) {
      fail(error);
    }
  };

  return (
    <AdminLayout title="Coupons">
      <Card className="p-6">
        <h2 className="text-lg font-semibold">New coupon</h2>
        <form onSubmit={submit} className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          <TextField label="Code" required value={form.code} onChange={set("code")} />
          <div>
            <label htmlFor="kind" className="mb-1 block text-sm font-medium">
              Discount type
            </label>
            <select
              id="kind"
              value={form.kind}
              onChange={set("kind")}
              className="h-11 w-full rounded-lg border border-slate-300 bg-white px-3"
            >
              <option value="percent">Percent off</option>
              <option value="amount">Dollars off</option>
            </select>
          </div>
          <TextField
            label={form.kind === "percent" ? "Percent (1-100)" : "Dollars"}
            type="number"
            min={form.kind === "percent" ? 1 : 0.01}
            max={form.kind === "percent" ? 100 : undefined}
            step={form.kind === "percent" ? 1 : 0.01}
            required
            value={form.value}
            onChange={set("value")}
          />
          <div>
            <label htmlFor="coupon-course" className="mb-1 block text-sm font-medium">
              Only for course (optional)
            </label>
            <select
              id="coupon-course"
              value={form.courseId}
              onChange={set("courseId")}
              className="h-11 w-full rounded-lg border border-slate-300 bg-white px-3"
            >
              <option value="">Any course</option>
              {(courses.data ?? []).map((c) => (
                <option key={c.id} value={c.id}>
                  {c.title}
                </option>
              ))}
            </select>
          </div>
          <TextField label="Expires (optional)" type="date" value={form.expires} onChange={set("expires")} />
          <TextField label="Maximum uses (optional)" type="number" min={1} value={form.max} onChange={set("max")} />
          <div className="sm:col-span-2 lg:col-span-3">
            <Button type="submit">Create Coupon</Button>
          </div>
        </form>
      </Card>
      <div className="mt-6 overflow-x-auto">
        {coupons.isPending ? (
          <Skeleton className="h-40" />
        ) : (
          <table className={tableClass}>
            <caption className="sr-only">Coupons</caption>
            <thead>
              <tr>
                <th className={thClass}>Code</th>
                <th className={thClass}>Discount</th>
                <th className={thClass}>Course</th>
                <th className={thClass}>Expires</th>
                <th className={thClass}>Redemptions</th>
                <th className={thClass}>Status</th>
                <th className={thClass}>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {(coupons.data ?? []).map((c) => (
                <tr key={c.id}>
                  <td className={`${tdClass} font-mono`}>{c.code}</td>
                  <td className={tdClass}>
                    {c.percentOff ? `${c.percentOff}% off` : `${formatPrice(c.amountOff ?? 0)} off`}
                  </td>
                  <td className={tdClass}>{c.courseId ?? "Any"}</td>
                  <td className={tdClass}>{c.expiresAt ? formatLongDate(c.expiresAt) : "Never"}</td>
                  <td className={tdClass}>
                    {c.redemptionCount}
                    {c.maxRedemptions !== null ? ` / ${c.maxRedemptions}` : ""}
                  </td>
                  <td className={tdClass}>{couponStatus(c)}</td>
                  <td className={tdClass}>
                    {c.active && (
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
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </AdminLayout>
  );
}
