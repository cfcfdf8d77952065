import type { CompiledQuery, Kysely, UnknownRow } from "kysely";
import { toAppRow, toStoredValue } from "./column-shapes.ts";
import type { DB } from "./schema.ts";

const SENTINEL = "\u0000param:";

interface DirectReads {
  /**
   * Runs a compiled read at once (SQLite) or as a named prepared statement (PostgreSQL), or answers
   * undefined when it must go through Kysely.
   */
  read(sql: string, parameters: readonly unknown[]): UnknownRow[] | Promise<UnknownRow[]> | undefined;
}
const directReads = new WeakMap<Kysely<DB>, DirectReads>();

/**
 * SQLite: prepared reads run straight on the reused better-sqlite3 statement. Kysely's executor
 * (plugins, connection mutex, several promise hops) costs about three times the indexed read itself.
 * PostgreSQL: they run on the pool as named statements, parsed and planned once per connection.
 */
export function registerDirectReads(db: Kysely<DB>, reads: DirectReads) {
  directReads.set(db, reads);
}

/**
 * A query that Kysely builds and compiles once per database, then runs with new values: building
 * and compiling a query costs more than running a small indexed one. `build` receives placeholder
 * values; each may appear any number of times and anywhere a value is bound.
 */
export function preparedQuery<Args extends unknown[], Row>(
  build: (db: Kysely<DB>, ...args: Args) => { compile(db: Kysely<DB>): CompiledQuery<Row> },
  arity: Args["length"],
) {
  const compiled = new WeakMap<Kysely<DB>, { query: CompiledQuery<Row>; slots: (number | { value: unknown })[] }>();
  return async (db: Kysely<DB>, ...args: Args): Promise<Row[]> => {
    let entry = compiled.get(db);
    if (!entry) {
      const placeholders = Array.from({ length: arity }, (_, i) => `${SENTINEL}${i}`) as Args;
      const query = build(db, ...placeholders).compile(db);
      const slots = query.parameters.map((p) =>
        typeof p === "string" && p.startsWith(SENTINEL) ? Number(p.slice(SENTINEL.length)) : { value: p },
      );
      entry = { query, slots };
      compiled.set(db, entry);
    }
    const { query, slots } = entry;
    const parameters = slots.map((s) => (typeof s === "number" ? toStoredValue(args[s]) : s.value));
    const direct = directReads.get(db)?.read(query.sql, parameters);
    if (direct) {
      // The same shapes as through Kysely, whose plugin the direct path skips (column-shapes.ts).
      const rows = await direct;
      for (const row of rows) toAppRow(row);
      return rows as Row[];
    }
    return (await db.executeQuery<Row>({ ...query, parameters })).rows;
  };
}
