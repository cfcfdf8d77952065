import { useQuery } from "@tanstack/react-query";
import { api } from "#client/lib/api-client.ts";
import { queryKeys } from "#client/lib/query-keys.ts";
import type { Purchase } from "#shared/schemas/purchases.ts";

export const usePurchases = () =>
  useQuery({ queryKey: queryKeys.purchases.all(), queryFn: () => api.get<Purchase[]>("/api/purchases") });

export const usePurchase = (orderId: string) =>
  useQuery({
    queryKey: queryKeys.purchases.one(orderId),
    queryFn: () => api.get<Purchase>(`/api/purchases/${encodeURIComponent(orderId)}`),
    retry: false,
  });

export const STATUS_LABELS: Record<Purchase["status"], string> = {
  paid: "Paid",
  refunding: "Refund under way",
  refunded: "Refunded",
};
