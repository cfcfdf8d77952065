/** A plain object's fields, read without a cast (parsed JSON, a thrown value, a request body). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
