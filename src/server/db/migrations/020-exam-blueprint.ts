import type { Kysely } from "kysely";

/**
 * The final exam's blueprint: how many items each module contributes to every draw (docs/decisions/0026).
 * JSON `[{ "moduleId": "...", "count": 4 }, ...]`; null for an exam imported before blueprints existed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("courseExam").addColumn("blueprint", "text").execute();
}
