/**
 * The value a test relies on being there (an array's first row, a map's entry), or a failure that
 * names what was missing: an index read under `noUncheckedIndexedAccess` without a `!`.
 */
export function must<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new Error(`expected ${what}, found ${String(value)}`);
  return value;
}

type Tuple<T, N extends number, R extends T[] = []> = R["length"] extends N ? R : Tuple<T, N, [T, ...R]>;

/** The first `count` items of a list as a tuple to destructure, or a failure when the list is shorter. */
export function take<T, N extends number>(items: readonly T[], count: N, what: string): Tuple<T, N> {
  if (items.length < count) throw new Error(`expected at least ${count} ${what}, found ${items.length}`);
  return items.slice(0, count) as Tuple<T, N>;
}

/** Item `index` of a list, or a failure naming the index and the list's length. */
export function nth<T>(items: readonly T[], index: number): T {
  return must(items[index], `item ${index} of a list of ${items.length}`);
}
