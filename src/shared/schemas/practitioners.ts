import { z } from "zod";
import { HIDDEN_CHARACTER_MESSAGE, hasHiddenCharacter, isPlainText, singleLineName } from "./text.ts";

const singleLine = (label: string, max: number) => singleLineName(label, 2, max);

/** One address and no header fields: `?cc=`, `?bcc=` or `?body=` would have a visitor's mail say more than they wrote. */
const MAILTO_ONE_ADDRESS = /^mailto:[^@?&,;%\s]+@[^@?&,;%\s]+$/i;

/** What a certificate holder publishes in the practitioner directory. */
export const practitionerListingInputSchema = z.strictObject({
  displayName: singleLine("Display name", 80),
  region: singleLine("City or region", 80),
  bio: z
    .string({ error: "Short bio is required" })
    .trim()
    .min(10, "Short bio needs at least 10 characters")
    .max(500, "Short bio is at most 500 characters")
    .refine(isPlainText, "Short bio must be plain text")
    .refine((v) => !hasHiddenCharacter(v), `Short bio ${HIDDEN_CHARACTER_MESSAGE}`),
  contactUrl: z
    .string({ error: "Contact link is required" })
    .trim()
    .max(300, "Contact link is at most 300 characters")
    .pipe(
      z.url({
        protocol: /^(https|mailto)$/,
        error: "Contact link must start with https:// or mailto:",
      }),
    )
    .refine((v) => !/^mailto:$/i.test(v) && !/^mailto:[^@]*$/i.test(v), "A mailto: link needs an e-mail address")
    .refine(
      (v) => !/^mailto:/i.test(v) || MAILTO_ONE_ADDRESS.test(v),
      "A mailto: link takes one e-mail address and nothing else (no ?cc=, ?bcc=, ?subject= or ?body=)",
    ),
});
export type PractitionerListingInput = z.infer<typeof practitionerListingInputSchema>;

/** The holder's own view: whether a valid certificate allows listing, and the listing if any. */
export const ownPractitionerListingSchema = z.object({
  eligible: z.boolean(),
  listing: z
    .object({ displayName: z.string(), region: z.string(), bio: z.string(), contactUrl: z.string() })
    .nullable(),
});
export type OwnPractitionerListing = z.infer<typeof ownPractitionerListingSchema>;

export const practitionerSearchSchema = z.strictObject({
  course: z.string().trim().max(100).optional(),
  region: z.string().trim().max(80).optional(),
});

export const practitionerCardSchema = z.object({
  displayName: z.string(),
  region: z.string(),
  bio: z.string(),
  contactUrl: z.string(),
  certificates: z.array(z.object({ certificateId: z.string(), courseId: z.string(), courseTitle: z.string() })),
});
export type PractitionerCard = z.infer<typeof practitionerCardSchema>;
export const practitionerDirectorySchema = z.object({ practitioners: z.array(practitionerCardSchema) });
export type PractitionerDirectory = z.infer<typeof practitionerDirectorySchema>;
