/** Prices are integer cents, shown as dollars with two decimals. */
export function formatPrice(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}

export const MIN_PASSWORD_LENGTH = 6;

/** Dates in en-US long format, e.g. 'January 31, 2025'. */
export function formatLongDate(iso: string | null | undefined): string {
  if (!iso) return "";
  return new Date(iso).toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });
}
