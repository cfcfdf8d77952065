import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, dataOf } from "#client/lib/api-client.ts";
import { queryKeys } from "#client/lib/query-keys.ts";
import { DEFAULT_SUPPORT_EMAIL } from "#shared/constants.ts";
import type { SiteConfig } from "#shared/schemas/site-config.ts";
import type { SiteContent } from "#shared/schemas/site-content.ts";

export const getSiteConfig = () => dataOf(api.GET("/api/config"));
export const siteConfigQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.siteConfig(), queryFn: getSiteConfig, staleTime: Infinity });

type SiteLinks = Omit<SiteConfig, "content">;
const fallback: SiteLinks = {
  storeUrl: null,
  practitionerAppUrl: null,
  marketplaceUrl: null,
  supportEmail: DEFAULT_SUPPORT_EMAIL,
};

export function useSiteConfig(): SiteLinks {
  return useQuery(siteConfigQueryOptions()).data ?? fallback;
}

/** The site texts and figures from content/site; undefined until loaded (the server is their only source). */
export function useSiteContent(): SiteContent | undefined {
  return useQuery(siteConfigQueryOptions()).data?.content;
}
