import type { Kysely } from "kysely";
import { engineOf } from "../database.ts";

/** Column types that differ between the engines. Everything else is written once. */
export function columnTypes(db: Kysely<unknown>) {
  const pg = engineOf(db) === "postgres";
  return {
    timestamp: pg ? ("timestamptz" as const) : ("text" as const),
    boolean: pg ? ("boolean" as const) : ("integer" as const),
    bigint: pg ? ("bigint" as const) : ("integer" as const),
    serial: pg ? ("serial" as const) : ("integer" as const),
    blob: pg ? ("bytea" as const) : ("blob" as const),
  };
}
