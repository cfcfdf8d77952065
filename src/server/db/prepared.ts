import type { CompiledQuery, Kysely } from "kysely";
import type { DB } from "./schema.ts";

const SENTINEL = "\u0000param:";

interface DirectReads {
  /**
   * Runs a compiled read at once (SQLite) or as a named prepared statement (PostgreSQL), or answers
   * undefined when it must go through Kysely.
   */
  read(sql: string, parameters: readonly unknown[]): unknown[] | Promise<unknown[]> | undefined;
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
    const parameters = slots.map((s) => (typeof s === "number" ? args[s] : s.value));
    const rows = directReads.get(db)?.read(query.sql, parameters);
    if (rows) return (await rows) as Row[];
    return (await db.executeQuery<Row>({ ...query, parameters })).rows;
  };
}
