import { useQuery } from "@tanstack/react-query";
import { api, dataOf } from "./api-client.ts";
import { queryKeys } from "./query-keys.ts";

/** The learner's orders, newest first (Purchases, and the checkout success page's receipt link). */
export const usePurchases = (options: { enabled?: boolean } = {}) =>
  useQuery({
    queryKey: queryKeys.purchases.all(),
    queryFn: () => dataOf(api.GET("/api/purchases")),
    enabled: options.enabled ?? true,
  });
