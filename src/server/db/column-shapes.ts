import {
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  PostgresQueryCompiler,
  type QueryResult,
  type RootOperationNode,
  SqliteQueryCompiler,
  type UnknownRow,
} from "kysely";

/**
 * The app sees one shape per column on both engines (decision 0040):
 * - a timestamp is an ISO 8601 UTC string (`2026-11-26T04:17:56.000Z`). SQLite stores it so (every
 *   write is a `toISOString()`); PostgreSQL stores `timestamptz` and node-postgres hands back a Date,
 *   which is turned into that string here.
 * - a yes/no column is a boolean. Stored as integer 0/1 on both engines (Better Auth's
 *   `emailVerified` is `boolean` on PostgreSQL), so SQL compares it with 1 and 0 everywhere.
 *
 * Better Auth is given the database without this plugin (auth/auth.ts): it converts its own columns
 * and expects Date objects from PostgreSQL.
 */

/** Columns that hold a yes/no, by name (no other column of any table has one of these names). */
export const BOOLEAN_COLUMNS: ReadonlySet<string> = new Set([
  "emailVerified",
  "comingSoon",
  "requiredForCertificate",
  "passed",
  "isCompleted",
  "active",
  "twoFactorEnabled",
  "passwordSignIn",
  "verified",
  "backedUp",
  "withinOne",
]);

/** Puts a row from either engine into the app's shapes, in place. */
export function toAppRow(row: Record<string, unknown>): void {
  for (const key in row) {
    const value = row[key];
    if (value instanceof Date) row[key] = value.toISOString();
    else if (typeof value === "number" && BOOLEAN_COLUMNS.has(key)) row[key] = value !== 0;
  }
}

/** A value bound to a statement, as the engines store it: booleans as 1 and 0. */
export const toStoredValue = (value: unknown): unknown => (typeof value === "boolean" ? Number(value) : value);

/** Turns every result row into the app's shapes (the read side; the write side is the compilers below). */
export const columnShapesPlugin: KyselyPlugin = {
  transformQuery: ({ node }: PluginTransformQueryArgs): RootOperationNode => node,
  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    for (const row of result.rows) toAppRow(row);
    return result;
  },
};

// The write side: booleans are bound, and written as literals, as 1 and 0. In the compiler rather than
// the plugin because the compiler already visits each value once; a plugin would walk the tree again.
export class SqliteShapesCompiler extends SqliteQueryCompiler {
  protected override addParameter(parameter: unknown): void {
    super.addParameter(toStoredValue(parameter));
  }
  protected override appendImmediateValue(value: unknown): void {
    super.appendImmediateValue(toStoredValue(value));
  }
}
export class PostgresShapesCompiler extends PostgresQueryCompiler {
  protected override addParameter(parameter: unknown): void {
    super.addParameter(toStoredValue(parameter));
  }
  protected override appendImmediateValue(value: unknown): void {
    super.appendImmediateValue(toStoredValue(value));
  }
}
