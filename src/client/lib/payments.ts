import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, dataOf } from "./api-client.ts";
import { queryKeys } from "./query-keys.ts";

export const paymentsConfigQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.payments.config(),
    queryFn: () => dataOf(api.GET("/api/payments/config")),
    staleTime: Infinity,
  });
export const usePaymentsConfig = () => useQuery(paymentsConfigQueryOptions());

/** False only once the server has said purchasing is off; pages then show no Buy button that would fail. */
export function usePurchasing(): boolean {
  return usePaymentsConfig().data?.enabled !== false;
}
