import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { api } from "#client/lib/api-client.ts";
import { queryKeys } from "#client/lib/query-keys.ts";
import type {
  accommodationInputSchema,
  adminCouponSchema,
  adminEnrollInputSchema,
  adminEnrollResponseSchema,
  bulkEnrollResponseSchema,
  createCouponInputSchema,
  grantAttemptInputSchema,
  pagedAuditSchema,
  pagedLearnersSchema,
  pagedOrdersSchema,
} from "#shared/schemas/admin.ts";
import type {
  expiringCertificateListSchema,
  expiringWindowSchema,
  extendCertificateInputSchema,
  extendCertificateResponseSchema,
} from "#shared/schemas/certificate-lifecycle.ts";
import type { ItemStatistics } from "#shared/schemas/item-statistics.ts";

type AdminCoupon = z.infer<typeof adminCouponSchema>;
export type CreateCouponInput = z.input<typeof createCouponInputSchema>;

const enc = encodeURIComponent;

const qs = (q: string, page: number, pageSize = 20) =>
  new URLSearchParams({ ...(q ? { q } : {}), page: String(page), pageSize: String(pageSize) }).toString();

export const useAdminCoupons = () =>
  useQuery({ queryKey: queryKeys.admin.coupons(), queryFn: () => api.get<AdminCoupon[]>("/api/admin/coupons") });

export const useAdminOrders = (q: string, page: number) =>
  useQuery({
    queryKey: queryKeys.admin.orders(q, page),
    queryFn: () => api.get<z.infer<typeof pagedOrdersSchema>>(`/api/admin/orders?${qs(q, page)}`),
    placeholderData: keepPreviousData,
  });

export const useAdminLearners = (q: string, page: number) =>
  useQuery({
    queryKey: queryKeys.admin.learners(q, page),
    queryFn: () => api.get<z.infer<typeof pagedLearnersSchema>>(`/api/admin/learners?${qs(q, page)}`),
    placeholderData: keepPreviousData,
  });

export const useAuditLog = (q: string, page: number) =>
  useQuery({
    queryKey: queryKeys.admin.audit(q, page),
    queryFn: () => api.get<z.infer<typeof pagedAuditSchema>>(`/api/admin/audit?${qs(q, page, 50)}`),
    placeholderData: keepPreviousData,
  });

// Mutations: each refreshes the lists it changes (and the audit log, which every admin action writes).

function useAdminMutation<TInput, TResult>(
  mutationFn: (input: TInput) => Promise<TResult>,
  changes: (keyof typeof queryKeys.admin)[],
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () =>
      Promise.all(
        [...changes, "audit" as const].map((list) =>
          queryClient.invalidateQueries({ queryKey: queryKeys.admin[list]() }),
        ),
      ),
  });
}

export const useCreateCoupon = () =>
  useAdminMutation((body: CreateCouponInput) => api.post<AdminCoupon>("/api/admin/coupons", body), ["coupons"]);

export const useDeactivateCoupon = () =>
  useAdminMutation((id: string) => api.post<AdminCoupon>(`/api/admin/coupons/${enc(id)}/deactivate`), ["coupons"]);

export const useRefundOrder = () =>
  useAdminMutation((id: string) => api.post<unknown>(`/api/admin/orders/${enc(id)}/refund`), ["orders", "learners"]);

export const useRevokeCertificate = () =>
  useAdminMutation(
    ({ certificateId, reason }: { certificateId: string; reason: string }) =>
      api.post<unknown>(`/api/admin/certificates/${enc(certificateId)}/revoke`, { reason }),
    ["learners"],
  );

export const useAdminEnroll = () =>
  useAdminMutation(
    (body: z.input<typeof adminEnrollInputSchema>) =>
      api.post<z.infer<typeof adminEnrollResponseSchema>>("/api/admin-enroll-user", body),
    ["learners", "orders"],
  );

export const useBulkEnroll = () =>
  useAdminMutation(
    (csv: string) => api.post<z.infer<typeof bulkEnrollResponseSchema>>("/api/admin/enrollments/bulk", { csv }),
    ["learners", "orders"],
  );

/** One more attempt at a quiz or exam for one learner (audited). */
export const useGrantAttempt = () =>
  useAdminMutation(
    ({ userId, ...body }: { userId: string } & z.input<typeof grantAttemptInputSchema>) =>
      api.post<{ granted: true }>(`/api/admin/learners/${enc(userId)}/attempt-grants`, body),
    ["learners"],
  );

/** A learner's time multiplier on every timed exam (audited). */
export const useSetTimeMultiplier = () =>
  useAdminMutation(
    ({ userId, ...body }: { userId: string } & z.input<typeof accommodationInputSchema>) =>
      api.put<unknown>(`/api/admin/learners/${enc(userId)}/accommodation`, body),
    ["learners"],
  );

export type ExpiringWindow = z.infer<typeof expiringWindowSchema>;

export const useExpiringCertificates = (window: ExpiringWindow) =>
  useQuery({
    queryKey: queryKeys.admin.expiringCertificates(window),
    queryFn: () =>
      api.get<z.infer<typeof expiringCertificateListSchema>>(`/api/admin/certificates/expiring?window=${window}`),
    placeholderData: keepPreviousData,
  });

export const expiringCsvUrl = (window: ExpiringWindow) => `/api/admin/certificates/expiring.csv?window=${window}`;

/** Extends one certificate by hand; the expiring lists are read again. */
export function useExtendCertificate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      certificateId,
      ...body
    }: { certificateId: string } & z.input<typeof extendCertificateInputSchema>) =>
      api.post<z.infer<typeof extendCertificateResponseSchema>>(
        `/api/admin/certificates/${enc(certificateId)}/extend`,
        body,
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.admin.expiringCertificates() }),
  });
}

/** Makes a learner an assessor, or back (audited; admins keep their role). */
export const useSetRole = () =>
  useAdminMutation(
    ({ userId, role }: { userId: string; role: "learner" | "assessor" }) =>
      api.put<unknown>(`/api/admin/learners/${enc(userId)}/role`, { role }),
    ["learners"],
  );

/** How each quiz and exam item of a course behaves in recorded attempts. */
export const useItemStatistics = (courseId: string) =>
  useQuery({
    queryKey: queryKeys.admin.itemStatistics(courseId),
    queryFn: () => api.get<ItemStatistics>(`/api/admin/item-statistics?courseId=${enc(courseId)}`),
    enabled: !!courseId,
  });
export const itemStatisticsCsvUrl = (courseId: string) => `/api/admin/item-statistics.csv?courseId=${enc(courseId)}`;
