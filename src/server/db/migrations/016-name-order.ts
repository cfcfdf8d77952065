import { type Kysely, sql } from "kysely";

const ORDER_CHECK = (column: string) => sql`check (${sql.ref(column)} in ('given-first', 'family-first'))`;

/**
 * The order a learner's names are printed in (docs/decisions/0020). Certificates keep the order they
 * were issued with, so one issued before this migration reads as it always did: given name first.
 * Name changes record the order on both sides, like the names.
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ["user", "certificate"]) {
    await db.schema
      .alterTable(table)
      .addColumn("nameOrder", "text", (c) => c.notNull().defaultTo("given-first").modifyEnd(ORDER_CHECK("nameOrder")))
      .execute();
  }
  for (const column of ["oldNameOrder", "newNameOrder"]) {
    await db.schema
      .alterTable("certificateNameChange")
      .addColumn(column, "text", (c) => c.notNull().defaultTo("given-first").modifyEnd(ORDER_CHECK(column)))
      .execute();
  }
}
