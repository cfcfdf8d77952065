import type { Kysely } from "kysely";
import { columnTypes } from "./types.ts";

export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable("course")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("level", "text", (c) => c.notNull())
    .addColumn("price", "integer", (c) => c.notNull())
    .addColumn("duration", "text", (c) => c.notNull())
    .addColumn("gradient", "text", (c) => c.notNull())
    .addColumn("comingSoon", "integer", (c) => c.notNull())
    .addColumn("learningOutcomes", "text", (c) => c.notNull())
    .addColumn("seoTitle", "text", (c) => c.notNull())
    .addColumn("seoDescription", "text", (c) => c.notNull())
    .addColumn("seoKeywords", "text", (c) => c.notNull())
    .addColumn("marketplaceUrl", "text")
    .addColumn("contentHash", "text", (c) => c.notNull())
    .addColumn("updatedAt", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("courseModule")
    .addColumn("courseId", "text", (c) => c.notNull().references("course.id").onDelete("cascade"))
    .addColumn("id", "text", (c) => c.notNull())
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("courseModule_pk", ["courseId", "id"])
    .execute();
  await db.schema
    .createTable("lesson")
    .addColumn("courseId", "text", (c) => c.notNull())
    .addColumn("id", "text", (c) => c.notNull())
    .addColumn("moduleId", "text", (c) => c.notNull())
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("duration", "text", (c) => c.notNull())
    .addColumn("html", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("lesson_pk", ["courseId", "id"])
    .addForeignKeyConstraint("lesson_module_fk", ["courseId", "moduleId"], "courseModule", ["courseId", "id"], (c) =>
      c.onDelete("cascade"),
    )
    .execute();
  await db.schema
    .createTable("quiz")
    .addColumn("courseId", "text", (c) => c.notNull())
    .addColumn("moduleId", "text", (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("questions", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("quiz_pk", ["courseId", "moduleId"])
    .addForeignKeyConstraint("quiz_module_fk", ["courseId", "moduleId"], "courseModule", ["courseId", "id"], (c) =>
      c.onDelete("cascade"),
    )
    .execute();
  await db.schema
    .createTable("contentImport")
    .addColumn("id", t.serial, (c) => c.primaryKey())
    .addColumn("contentHash", "text", (c) => c.notNull())
    .addColumn("importedAt", t.timestamp, (c) => c.notNull())
    .execute();
  // Learners' records point at courses but never cascade from content changes.
  await db.schema
    .createTable("enrollment")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("courseId", "text", (c) => c.notNull().references("course.id"))
    .addColumn("source", "text", (c) => c.notNull())
    .addColumn("createdAt", t.timestamp, (c) => c.notNull())
    .addUniqueConstraint("enrollment_user_course_uq", ["userId", "courseId"])
    .execute();
}
