/** Small practical-assessment facts the pages share, kept out of the schemas so a page pays for no zod (docs/decisions/0053). */

/** What the result page, the certificate and the verify page say of the assessment: never the assessor's name. */
export const ASSESSED_BY_TEXT = "The practical was assessed by a calibrated assessor against the published rubric.";

/** A recording an assessor can play: audio or video (docs/decisions/0053). */
export const isRecording = (contentType: string) =>
  contentType.startsWith("audio/") || contentType.startsWith("video/");
