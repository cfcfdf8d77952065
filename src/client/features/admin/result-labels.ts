import type { BulkRowResult } from "#shared/schemas/admin.ts";

/** What each bulk-enrolment outcome is called on screen (the result table, its toast, the audit log). */
export const RESULT_LABELS: Record<BulkRowResult["result"], string> = {
  enrolled: "Enrolled",
  pending: "Pending (no account yet)",
  "already-enrolled": "Already enrolled",
  "already-pending": "Already pending",
  "unknown-course": "Unknown course",
  "coming-soon": "Coming soon",
  "invalid-email": "Invalid e-mail",
};
