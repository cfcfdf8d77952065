import { z } from "zod";

/** Public settings the browser needs (links and the support address). */
export const siteConfigSchema = z.object({
  storeUrl: z.string().nullable(),
  practitionerAppUrl: z.string().nullable(),
  marketplaceUrl: z.string().nullable(),
  supportEmail: z.string(),
});
export type SiteConfig = z.infer<typeof siteConfigSchema>;
