import { z } from "zod";
import { siteContentSchema } from "./site-content.ts";

/** Public settings the browser needs (links and the support address), and the site texts from content/site. */
export const siteConfigSchema = z.object({
  storeUrl: z.string().nullable(),
  practitionerAppUrl: z.string().nullable(),
  marketplaceUrl: z.string().nullable(),
  supportEmail: z.string(),
  content: siteContentSchema,
});
export type SiteConfig = z.infer<typeof siteConfigSchema>;
