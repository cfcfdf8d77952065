import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "#client/lib/api-client.ts";
import { queryKeys } from "#client/lib/query-keys.ts";
import { DEFAULT_SUPPORT_EMAIL } from "#shared/constants.ts";
import type { SiteConfig } from "#shared/schemas/site-config.ts";

export const getSiteConfig = () => api.get<SiteConfig>("/api/config");
export const siteConfigQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.siteConfig(), queryFn: getSiteConfig, staleTime: Infinity });

const fallback: SiteConfig = {
  storeUrl: null,
  practitionerAppUrl: null,
  marketplaceUrl: null,
  supportEmail: DEFAULT_SUPPORT_EMAIL,
};

export function useSiteConfig(): SiteConfig {
  return useQuery(siteConfigQueryOptions()).data ?? fallback;
}
