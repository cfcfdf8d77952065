import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "#client/lib/api-client.ts";
import type { SiteConfig } from "#shared/schemas/site-config.ts";

export const getSiteConfig = () => api.get<SiteConfig>("/api/config");
export const siteConfigQueryOptions = () =>
  queryOptions({ queryKey: ["/api/config"], queryFn: getSiteConfig, staleTime: Infinity });

const fallback: SiteConfig = {
  storeUrl: null,
  practitionerAppUrl: null,
  marketplaceUrl: null,
  supportEmail: "support@wellness-academy.example",
};

export function useSiteConfig(): SiteConfig {
  return useQuery(siteConfigQueryOptions()).data ?? fallback;
}
