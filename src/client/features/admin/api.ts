import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { api, dataOf } from "#client/lib/api-client.ts";
import { queryKeys } from "#client/lib/query-keys.ts";
import type {
  accommodationInputSchema,
  adminEnrollInputSchema,
  createCouponInputSchema,
  grantAttemptInputSchema,
} from "#shared/schemas/admin.ts";
import type { AnalyticsTable } from "#shared/schemas/analytics.ts";
import type { expiringWindowSchema, extendCertificateInputSchema } from "#shared/schemas/certificate-lifecycle.ts";
import type { OutboxGroup } from "#shared/schemas/outbox.ts";
import type { GrantableRole } from "#shared/schemas/practical.ts";

export type CreateCouponInput = z.input<typeof createCouponInputSchema>;

/** A page of an admin list, optionally filtered by `q`. */
const page = (q: string, page: number, pageSize = 20) => ({ params: { query: { q: q || undefined, page, pageSize } } });

export const useAdminCoupons = () =>
  useQuery({ queryKey: queryKeys.admin.coupons(), queryFn: () => dataOf(api.GET("/api/admin/coupons")) });

export const useAdminOrders = (q: string, pageNumber: number) =>
  useQuery({
    queryKey: queryKeys.admin.orders(q, pageNumber),
    queryFn: () => dataOf(api.GET("/api/admin/orders", page(q, pageNumber))),
    placeholderData: keepPreviousData,
  });

export const useAdminLearners = (q: string, pageNumber: number) =>
  useQuery({
    queryKey: queryKeys.admin.learners(q, pageNumber),
    queryFn: () => dataOf(api.GET("/api/admin/learners", page(q, pageNumber))),
    placeholderData: keepPreviousData,
  });

export const useAuditLog = (q: string, pageNumber: number) =>
  useQuery({
    queryKey: queryKeys.admin.audit(q, pageNumber),
    queryFn: () => dataOf(api.GET("/api/admin/audit", page(q, pageNumber, 50))),
    placeholderData: keepPreviousData,
  });

export const useOutbox = (status: OutboxGroup, pageNumber: number) =>
  useQuery({
    queryKey: queryKeys.admin.outbox(status, pageNumber),
    queryFn: () =>
      dataOf(api.GET("/api/admin/outbox", { params: { query: { status, page: pageNumber, pageSize: 20 } } })),
    placeholderData: keepPreviousData,
  });

/** One message of the outbox, rendered as it goes out (HTML and plain text). */
export const useOutboxMessage = (id: string | null) =>
  useQuery({
    queryKey: queryKeys.admin.outboxMessage(id ?? ""),
    queryFn: () => dataOf(api.GET("/api/admin/outbox/{id}", { params: { path: { id: id ?? "" } } })),
    enabled: id !== null,
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
  useAdminMutation((body: CreateCouponInput) => dataOf(api.POST("/api/admin/coupons", { body })), ["coupons"]);

export const useDeactivateCoupon = () =>
  useAdminMutation(
    (id: string) => dataOf(api.POST("/api/admin/coupons/{id}/deactivate", { params: { path: { id } } })),
    ["coupons"],
  );

export const useRefundOrder = () =>
  useAdminMutation(
    (id: string) => dataOf(api.POST("/api/admin/orders/{id}/refund", { params: { path: { id } } })),
    ["orders", "learners"],
  );

export const useRevokeCertificate = () =>
  useAdminMutation(
    ({ certificateId, reason }: { certificateId: string; reason: string }) =>
      dataOf(
        api.POST("/api/admin/certificates/{certificateId}/revoke", {
          params: { path: { certificateId } },
          body: { reason },
        }),
      ),
    ["learners"],
  );

/** Recovery of a member who lost every factor (decision 0054): step-up, audited, the owner e-mailed. */
export const useResetSecondFactors = () =>
  useAdminMutation(
    (id: string) => dataOf(api.POST("/api/admin/learners/{id}/second-factors/reset", { params: { path: { id } } })),
    ["learners"],
  );

export const useAdminEnroll = () =>
  useAdminMutation(
    (body: z.input<typeof adminEnrollInputSchema>) => dataOf(api.POST("/api/admin-enroll-user", { body })),
    ["learners", "orders"],
  );

export const useBulkEnroll = () =>
  useAdminMutation(
    (csv: string) => dataOf(api.POST("/api/admin/enrollments/bulk", { body: { csv } })),
    ["learners", "orders"],
  );

/** One more attempt at a quiz or exam for one learner (audited). */
export const useGrantAttempt = () =>
  useAdminMutation(
    ({ userId, ...body }: { userId: string } & z.input<typeof grantAttemptInputSchema>) =>
      dataOf(api.POST("/api/admin/learners/{id}/attempt-grants", { params: { path: { id: userId } }, body })),
    ["learners"],
  );

/** A learner's time multiplier on every timed exam (audited). */
export const useSetTimeMultiplier = () =>
  useAdminMutation(
    ({ userId, ...body }: { userId: string } & z.input<typeof accommodationInputSchema>) =>
      dataOf(api.PUT("/api/admin/learners/{id}/accommodation", { params: { path: { id: userId } }, body })),
    ["learners"],
  );

export type ExpiringWindow = z.infer<typeof expiringWindowSchema>;

export const useExpiringCertificates = (window: ExpiringWindow) =>
  useQuery({
    queryKey: queryKeys.admin.expiringCertificates(window),
    queryFn: () => dataOf(api.GET("/api/admin/certificates/expiring", { params: { query: { window } } })),
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
      dataOf(api.POST("/api/admin/certificates/{certificateId}/extend", { params: { path: { certificateId } }, body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.admin.expiringCertificates() }),
  });
}

/** Makes a learner an assessor or an instructor, or back (audited; admins keep their role; a role taken away takes its course assignments). */
export const useSetRole = () =>
  useAdminMutation(
    ({ userId, role }: { userId: string; role: GrantableRole }) =>
      dataOf(api.PUT("/api/admin/learners/{id}/role", { params: { path: { id: userId } }, body: { role } })),
    ["learners", "courseStaff"],
  );

/** How each quiz and exam item of a course behaves in recorded attempts. */
export const useItemStatistics = (courseId: string, version?: number) =>
  useQuery({
    queryKey: queryKeys.admin.itemStatistics(courseId, version),
    queryFn: () => dataOf(api.GET("/api/admin/item-statistics", { params: { query: { courseId, version } } })),
    enabled: !!courseId,
    placeholderData: keepPreviousData,
  });
/** A query string's optional version (docs/decisions/0055): left out for every version. */
const versionParam = (version?: number): Record<string, string> =>
  version === undefined ? {} : { version: String(version) };
export const itemStatisticsCsvUrl = (courseId: string, version?: number) =>
  `/api/admin/item-statistics.csv?${new URLSearchParams({ courseId, ...versionParam(version) })}`;

/** The owner's dashboard for a period (both days included) and the one before it. */
export const useAnalyticsOverview = (from: string, to: string) =>
  useQuery({
    queryKey: queryKeys.admin.analytics("overview", from, to),
    queryFn: () => dataOf(api.GET("/api/admin/analytics/overview", { params: { query: { from, to } } })),
    placeholderData: keepPreviousData,
  });
export const useAnalyticsAssessments = (from: string, to: string, courseId = "", version?: number) =>
  useQuery({
    queryKey: queryKeys.admin.analytics("assessments", from, to, courseId, version),
    queryFn: () =>
      dataOf(
        api.GET("/api/admin/analytics/assessments", {
          params: { query: { from, to, ...(courseId ? { courseId, version } : {}) } },
        }),
      ),
    placeholderData: keepPreviousData,
  });
/** Questions asked per course, the median wait for a staff answer and the share left past 48 hours (issue 41). */
export const useAnalyticsQuestions = (from: string, to: string) =>
  useQuery({
    queryKey: queryKeys.admin.analytics("questions", from, to),
    queryFn: () => dataOf(api.GET("/api/admin/analytics/questions", { params: { query: { from, to } } })),
    placeholderData: keepPreviousData,
  });
export const useCourseFunnel = (from: string, to: string, courseId: string, version?: number) =>
  useQuery({
    queryKey: queryKeys.admin.analytics("funnel", from, to, courseId, version),
    queryFn: () =>
      dataOf(api.GET("/api/admin/analytics/funnel", { params: { query: { from, to, courseId, version } } })),
    enabled: !!courseId,
    placeholderData: keepPreviousData,
  });
export const analyticsCsvUrl = (table: AnalyticsTable, from: string, to: string, courseId?: string, version?: number) =>
  `/api/admin/analytics/export.csv?${new URLSearchParams({
    table,
    from,
    to,
    ...(courseId ? { courseId, ...versionParam(version) } : {}),
  })}`;

/** Puts a failed or waiting message back at the head of the outbox (audited). */
export const useRetryOutboxEmail = () =>
  useAdminMutation(
    (id: string) => dataOf(api.POST("/api/admin/outbox/{id}/retry", { params: { path: { id } } })),
    ["outbox", "outboxMessage"],
  );

export const useAssessorAgreement = () =>
  useQuery({
    queryKey: ["/api/admin/assessor-agreement"],
    queryFn: () => dataOf(api.GET("/api/admin/assessor-agreement")),
  });

// Moderation of learners' questions and answers (decision 0056); its key is here, not in query-keys.ts,
// which every first load carries.
const moderationKey = ["/api/admin/posts"] as const;
export const useModerationQueue = () =>
  useQuery({ queryKey: moderationKey, queryFn: () => dataOf(api.GET("/api/admin/posts")) });

export function useModerate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ postId, action }: { postId: string; action: "hide" | "restore" }) =>
      action === "hide"
        ? dataOf(api.POST("/api/admin/posts/{postId}/hide", { params: { path: { postId } } }))
        : dataOf(api.POST("/api/admin/posts/{postId}/restore", { params: { path: { postId } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: moderationKey }),
  });
}

export const useSetPosting = () =>
  useMutation({
    mutationFn: ({ userId, ...body }: { userId: string; suspended: boolean; reason: string }) =>
      dataOf(api.POST("/api/admin/learners/{id}/posting", { params: { path: { id: userId } }, body })),
  });
