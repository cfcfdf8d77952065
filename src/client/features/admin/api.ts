import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api } from "#client/lib/api-client.ts";
import type { AdminCoupon, AdminLearner, AdminOrder, BulkRowResult } from "#shared/schemas/admin.ts";

export interface Paged<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}
export interface AuditEntry {
  id: string;
  actorEmail: string;
  action: string;
  target: string;
  details: Record<string, unknown>;
  createdAt: string;
}

const qs = (q: string, page: number, pageSize = 20) =>
  new URLSearchParams({ ...(q ? { q } : {}), page: String(page), pageSize: String(pageSize) }).toString();

export const adminEnrollUser = (userEmail: string, courseId: string) =>
  api.post<{ success: boolean; message: string; outcome: string }>("/api/admin-enroll-user", { userEmail, courseId });
export const bulkEnroll = (csv: string) =>
  api.post<{ rows: BulkRowResult[]; counts: Record<string, number> }>("/api/admin/enrollments/bulk", { csv });

export const useAdminCoupons = () =>
  useQuery({ queryKey: ["/api/admin/coupons"], queryFn: () => api.get<AdminCoupon[]>("/api/admin/coupons") });
export const createAdminCoupon = (body: Record<string, unknown>) => api.post<AdminCoupon>("/api/admin/coupons", body);
export const deactivateAdminCoupon = (id: string) =>
  api.post<AdminCoupon>(`/api/admin/coupons/${encodeURIComponent(id)}/deactivate`);

export const useAdminOrders = (q: string, page: number) =>
  useQuery({
    queryKey: ["/api/admin/orders", q, page],
    queryFn: () => api.get<Paged<AdminOrder>>(`/api/admin/orders?${qs(q, page)}`),
    placeholderData: keepPreviousData,
  });
export const refundOrder = (id: string) =>
  api.post<{ status: string }>(`/api/admin/orders/${encodeURIComponent(id)}/refund`);

export const useAdminLearners = (q: string, page: number) =>
  useQuery({
    queryKey: ["/api/admin/learners", q, page],
    queryFn: () => api.get<Paged<AdminLearner>>(`/api/admin/learners?${qs(q, page)}`),
    placeholderData: keepPreviousData,
  });
export const revokeCertificate = (certificateId: string, reason: string) =>
  api.post(`/api/admin/certificates/${encodeURIComponent(certificateId)}/revoke`, { reason });

export const useAuditLog = (q: string, page: number) =>
  useQuery({
    queryKey: ["/api/admin/audit", q, page],
    queryFn: () => api.get<Paged<AuditEntry>>(`/api/admin/audit?${qs(q, page, 50)}`),
    placeholderData: keepPreviousData,
  });
