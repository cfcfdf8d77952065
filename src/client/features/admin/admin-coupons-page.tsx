import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { Button } from "#client/components/ui/button.tsx";
import { ConfirmDialog } from "#client/components/ui/confirm-dialog.tsx";
import { FormError, SelectField, TextField, useFormErrors } from "#client/components/ui/form.tsx";
import { Card } from "#client/components/ui/misc.tsx";
import { useToast } from "#client/components/ui/toast.tsx";
import { ApiError, refusal } from "#client/lib/api-client.ts";
import { useCourses } from "#client/lib/courses.ts";
import { formatLongDate, formatPrice } from "#shared/format.ts";
import { type AdminCoupon, createCouponInputSchema } from "#shared/schemas/admin.ts";
import { AdminLayout } from "./admin-layout.tsx";
import { AdminTable } from "./admin-table.tsx";
import { type CreateCouponInput, useAdminCoupons, useCreateCoupon, useDeactivateCoupon } from "./api.ts";

function couponStatus(coupon: { active: boolean; expiresAt: string | null }) {
  if (!coupon.active) return "Inactive";
  if (coupon.expiresAt && new Date(coupon.expiresAt).getTime() <= Date.now()) return "Expired";
  return "Active";
}

const PERCENT_RANGE = "Give a percent from 1 to 100.";
const AMOUNT_RANGE = "Give an amount in dollars from 0.01 to 10,000, e.g. 12.50.";
const MAX_USES = "Maximum uses is a whole number from 1.";

const EMPTY = { code: "", kind: "percent" as "percent" | "amount", value: "", courseId: "", expires: "", max: "" };
type CouponForm = typeof EMPTY;

/** Where each of the server's fields is typed in the form, and what the form says when it is refused. */
const FORM_FIELD = {
  code: { field: "code" },
  percentOff: { field: "value", message: PERCENT_RANGE },
  amountOff: { field: "value", message: AMOUNT_RANGE },
  maxRedemptions: { field: "max", message: MAX_USES },
  expiresAt: { field: "expires" },
} as const satisfies Partial<Record<keyof CreateCouponInput, { field: keyof CouponForm; message?: string }>>;

const asNumber = (text: string) => (text.trim() ? Number(text) : Number.NaN);

/**
 * The form's text as the create route's body (dollars to cents, a date to the end of its day, UTC),
 * checked by the route's own schema; each refusal lands on the field it was typed in.
 */
const couponFormSchema = z
  .object({
    code: z.string(),
    kind: z.enum(["percent", "amount"]),
    value: z.string(),
    courseId: z.string(),
    expires: z.string(),
    max: z.string(),
  })
  .transform((form, ctx) => {
    const value = asNumber(form.value);
    const expires = form.expires ? new Date(`${form.expires}T23:59:59Z`) : null;
    const parsed = createCouponInputSchema.safeParse({
      code: form.code,
      ...(form.kind === "percent" ? { percentOff: value } : { amountOff: Math.round(value * 100) }),
      ...(form.courseId ? { courseId: form.courseId } : {}),
      ...(expires ? { expiresAt: Number.isNaN(expires.getTime()) ? form.expires : expires.toISOString() } : {}),
      ...(form.max.trim() ? { maxRedemptions: asNumber(form.max) } : {}),
    });
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) {
      const key = issue.path[0];
      const target = typeof key === "string" && key in FORM_FIELD ? FORM_FIELD[key as keyof typeof FORM_FIELD] : null;
      ctx.addIssue({
        code: "custom",
        message: target && "message" in target ? target.message : issue.message,
        path: target ? [target.field] : [],
      });
    }
    return z.NEVER;
  });

export default function AdminCouponsPage() {
  const coupons = useAdminCoupons();
  const courses = useCourses();
  const toast = useToast();
  const createCoupon = useCreateCoupon();
  const deactivateCoupon = useDeactivateCoupon();
  const form = useForm({ resolver: zodResolver(couponFormSchema), defaultValues: EMPTY });
  const error = useFormErrors(form);
  const kind = form.watch("kind");
  const courseTitle = (id: string | null) =>
    id === null ? "Any" : (courses.data?.find((c) => c.id === id)?.title ?? id);

  const submit = form.handleSubmit((input) =>
    createCoupon.mutate(input, {
      onSuccess: () => {
        toast({ title: "Coupon Created", description: input.code.toUpperCase() });
        form.reset();
      },
      onError: (failure) => {
        const description = refusal(failure);
        toast({ title: "Coupon Not Saved", description, variant: "destructive" });
        // A taken code is the one server refusal the form's own checks cannot foresee.
        if (failure instanceof ApiError && failure.status === 409) error.show(description, "code");
        else error.show(description);
      },
    }),
  );

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
          onSubmit={submit}
          noValidate
          aria-labelledby="new-coupon"
          className="mt-4 grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3"
        >
          <div className="empty:hidden sm:col-span-2 lg:col-span-3">
            <FormError id={error.errorId} message={error.message} />
          </div>
          <TextField {...error.field("code")} label="Code" required />
          <SelectField {...error.field("kind")} label="Discount type">
            <option value="percent">Percent off</option>
            <option value="amount">Dollars off</option>
          </SelectField>
          <TextField
            {...error.field("value")}
            label={kind === "percent" ? "Percent (1-100)" : "Dollars"}
            type="number"
            min={kind === "percent" ? 1 : 0.01}
            max={kind === "percent" ? 100 : undefined}
            step={kind === "percent" ? 1 : 0.01}
            required
          />
          <SelectField {...error.field("courseId")} label="Only for course (optional)">
            <option value="">Any course</option>
            {(courses.data ?? []).map((c) => (
              <option key={c.id} value={c.id}>
                {c.title}
              </option>
            ))}
          </SelectField>
          <TextField {...error.field("expires")} label="Expires (optional)" type="date" />
          <TextField {...error.field("max")} label="Maximum uses (optional)" type="number" min={1} />
          <div className="sm:col-span-2 lg:col-span-3">
            <Button type="submit" pending={createCoupon.isPending}>
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
