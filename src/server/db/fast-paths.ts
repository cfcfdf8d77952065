/**
 * The data layer's fast paths, and the only door to them (decisions 0014, 0033, 0040). Everything
 * outside `src/server/db/` imports these from here; `prepared.ts` and `group-commit.ts` are the
 * implementation, and the statement cache lives inside `database.ts`. `npm run check` refuses an
 * import of the implementation files from anywhere else (biome.json, docs/architecture.md).
 *
 * Rows come back in the shapes of `schema.ts` on both engines (timestamps as ISO 8601 UTC strings,
 * boolean columns as booleans), through these paths as through plain Kysely queries.
 *
 * Reads:
 * - `preparedQuery(build, arity)`: a query built and compiled once per database, then run with new
 *   values. On SQLite it runs straight on a cached better-sqlite3 statement (through Kysely while a
 *   group commit holds the connection, so it never sees a batch's uncommitted rows); on PostgreSQL
 *   as a named prepared statement, parsed and planned once per connection. For small, hot, indexed
 *   reads; `build` must bind every varying value as a parameter.
 *
 * Writes (durable when the promise resolves):
 * - `writeTransaction(db, work)`: writes that belong together, in one transaction. On SQLite, writes
 *   arriving in the same turn of the event loop share one commit and one fsync, each in its own
 *   savepoint (one that throws rolls back alone); on PostgreSQL, a plain transaction. `work` must use
 *   only the `trx` it is given, never `db`: the connection is held by the batch.
 * - `durableWrite(db, work)`: a single statement; on SQLite it joins the group commit, on
 *   PostgreSQL it runs autocommitted (no BEGIN/COMMIT round trips). `work` uses only its handle.
 * - `groupCommitCount(db)`: commits made so far on a SQLite database (undefined on PostgreSQL);
 *   for tests and benchmarks.
 */
export { durableWrite, groupCommitCount, writeTransaction } from "./group-commit.ts";
export { preparedQuery } from "./prepared.ts";
