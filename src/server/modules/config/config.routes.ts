import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { siteConfigSchema } from "#shared/schemas/site-config.ts";
import type { SiteContent } from "#shared/schemas/site-content.ts";
import { shownSiteContent } from "#shared/site-claims.ts";
import type { Config } from "../../config.ts";

export function configRoutes(config: Config, content: SiteContent): FastifyPluginAsyncZod {
  const body = {
    storeUrl: config.storeUrl ?? null,
    practitionerAppUrl: config.practitionerAppUrl ?? null,
    marketplaceUrl: config.marketplaceUrl ?? null,
    supportEmail: config.supportEmail,
    content: shownSiteContent(content, config.env),
  };
  return async (app) => {
    app.get("/api/config", { schema: { response: { 200: siteConfigSchema } } }, async () => body);
  };
}
