import { useQuery } from "@tanstack/react-query";
import { api, dataOf } from "#client/lib/api-client.ts";
import { queryKeys } from "#client/lib/query-keys.ts";
import type { Purchase } from "#shared/schemas/purchases.ts";

export const usePurchase = (orderId: string) =>
  useQuery({
    queryKey: queryKeys.purchases.one(orderId),
    queryFn: () => dataOf(api.GET("/api/purchases/{orderId}", { params: { path: { orderId } } })),
    retry: false,
  });

export const STATUS_LABELS: Record<Purchase["status"], string> = {
  paid: "Paid",
  refunding: "Refund under way",
  refunded: "Refunded",
};
