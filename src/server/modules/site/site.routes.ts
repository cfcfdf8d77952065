import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { textFileSchema } from "#shared/schemas/common.ts";
import type { Config } from "../../config.ts";
import type { CourseCatalogue } from "../courses/course-catalogue.ts";

/** Public pages worth indexing; member, checkout and admin pages are not. */
const PUBLIC_PAGES = ["/", "/login", "/terms", "/privacy", "/register-practitioner", "/practitioners"];

function escapeXml(text: string) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** robots.txt and sitemap.xml, built from the settings and the live catalogue. */
export function siteRoutes(config: Config, catalogue: CourseCatalogue): FastifyPluginAsyncZod {
  const text = (type: string) => ({ response: { 200: { content: { [type]: { schema: textFileSchema } } } } });
  return async (app) => {
    app.get("/robots.txt", { schema: text("text/plain") }, async (_request, reply) => {
      const body = [
        "User-agent: *",
        "Disallow: /admin",
        "Disallow: /admin-enrollments",
        "Disallow: /checkout",
        "Disallow: /my-learning",
        "Disallow: /profile",
        "Disallow: /api/",
        "",
        `Sitemap: ${config.appUrl}/sitemap.xml`,
        "",
      ].join("\n");
      return reply.type("text/plain; charset=utf-8").header("cache-control", "public, max-age=3600").send(body);
    });

    app.get("/sitemap.xml", { schema: text("application/xml") }, async (_request, reply) => {
      const { courses } = await catalogue.get();
      const urls = [...PUBLIC_PAGES, ...courses.filter((c) => !c.card.comingSoon).map((c) => `/course/${c.card.id}`)];
      const body = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
        ...urls.map((path) => `  <url><loc>${escapeXml(config.appUrl + path)}</loc></url>`),
        "</urlset>",
        "",
      ].join("\n");
      return reply.type("application/xml; charset=utf-8").header("cache-control", "public, max-age=3600").send(body);
    });
  };
}
