import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { siteConfigSchema } from "#shared/schemas/site-config.ts";
import type { SiteContent } from "#shared/schemas/site-content.ts";
import type { Config } from "../../config.ts";

/** Sample testimonials are placeholders: development and demos show them labelled, production never does. */
export function shownTestimonials(testimonials: SiteContent["testimonials"], env: Config["env"]) {
  return env === "production" ? testimonials.filter((t) => !t.sample) : testimonials;
}

export function configRoutes(config: Config, content: SiteContent): FastifyPluginAsyncZod {
  const body = {
    storeUrl: config.storeUrl ?? null,
    practitionerAppUrl: config.practitionerAppUrl ?? null,
    marketplaceUrl: config.marketplaceUrl ?? null,
    supportEmail: config.supportEmail,
    content: { ...content, testimonials: shownTestimonials(content.testimonials, config.env) },
  };
  return async (app) => {
    app.get("/api/config", { schema: { response: { 200: siteConfigSchema } } }, async () => body);
  };
}
