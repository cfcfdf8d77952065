import type { NameOrder } from "./schemas/text.ts";

// Han (with 々 and 〆), kana (with ー) and Hangul, through Script_Extensions so the marks count too.
const CJK_ONLY = /^[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}]+$/u;

/**
 * A person's full name in the order they chose (docs/decisions/0020). Family name first joins the
 * two parts without a space when both are written entirely in CJK scripts (山田太郎, 김민준), and
 * with one otherwise (Nagy László, Yamada Taro).
 */
export function formatPersonName(givenName: string, familyName: string, order: NameOrder): string {
  if (order === "given-first") return `${givenName} ${familyName}`;
  return CJK_ONLY.test(givenName) && CJK_ONLY.test(familyName)
    ? `${familyName}${givenName}`
    : `${familyName} ${givenName}`;
}

/** Prices are integer cents, shown as dollars with two decimals. */
export function formatPrice(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}

export const MIN_PASSWORD_LENGTH = 6;
export const MAX_PASSWORD_LENGTH = 128;

/** Dates in en-US long format, e.g. 'January 31, 2025'. */
export function formatLongDate(iso: string | null | undefined): string {
  if (!iso) return "";
  return new Date(iso).toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });
}

/** "4 weeks · 5 study hours": the calendar time next to the work it takes (decision 0029). */
/** "45 minutes", "1 minute", "37 minutes 30 seconds". */
export function formatMinutes(minutes: number) {
  const whole = Math.floor(minutes);
  const seconds = Math.round((minutes - whole) * 60);
  const m = `${whole} minute${whole === 1 ? "" : "s"}`;
  return seconds ? `${m} ${seconds} seconds` : m;
}

export function formatStudyTime(course: { duration: string; studyHours: number | null }): string {
  if (course.studyHours === null) return course.duration;
  return `${course.duration} · ${course.studyHours} study ${course.studyHours === 1 ? "hour" : "hours"}`;
}

/** A course's continuing-education approval: hours only with the body that approved them and its number. */
export interface CeApproval {
  hours: number;
  approvedBy: string;
  approvalNumber: string;
}

const hoursText = (hours: number) => `${hours} ${hours === 1 ? "hour" : "hours"}`;

/**
 * What a certificate, its PDF, the verify page and the credential say about hours (decision 0052): CE
 * hours only with an approving body and number, otherwise the estimated study time, plainly not approved.
 */
export function creditStatement(facts: {
  ceApproval: CeApproval | null;
  studyHours: number | null;
  hasPractical: boolean;
}): string | null {
  const { ceApproval, studyHours } = facts;
  if (ceApproval)
    return `${ceApproval.hours} CE ${ceApproval.hours === 1 ? "hour" : "hours"} approved by ${ceApproval.approvedBy} (${ceApproval.approvalNumber})`;
  if (studyHours === null) return null;
  return `Estimated study time: ${hoursText(studyHours)}${facts.hasPractical ? ", including the practical assessment" : ""}. Not approved for continuing-education credit.`;
}
