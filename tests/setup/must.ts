/**
 * The value a test relies on being there (an array's first row, a map's entry), or a failure that
 * names what was missing: an index read under `noUncheckedIndexedAccess` without a `!`.
 */
export function must<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new Error(`expected ${what}, found ${String(value)}`);
  return value;
}
