import type { Kysely } from "kysely";

/**
 * The practical's pass rule follows the rubric's labels (docs/decisions/0052): `passRule` holds the rule
 * as JSON ({ minimumLevel, minPercent }), and each criterion in `criteria` says whether it is critical.
 * The points-share columns go; the next content import writes every course's rule.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("coursePractical")
    .addColumn("passRule", "text", (c) => c.notNull().defaultTo('{"minimumLevel":"Competent","minPercent":null}'))
    .execute();
  await db.schema.alterTable("coursePractical").dropColumn("passMinPercent").execute();
  await db.schema.alterTable("coursePractical").dropColumn("passNoLowestLevel").execute();
}
