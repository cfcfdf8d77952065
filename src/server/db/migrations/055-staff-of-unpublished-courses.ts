import { type Kysely, sql } from "kysely";
import { engineOf } from "../database.ts";
import { columnTypes } from "./types.ts";

/**
 * `courseStaff.courseId` no longer references `course` (docs/decisions/0060): `course` holds a course
 * once it is published, and an admin now assigns instructors to a course that is still only a draft.
 * The staff module checks that the course exists (published or drafted) when it assigns.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (engineOf(db) === "postgres") {
    await sql`alter table "courseStaff" drop constraint if exists "courseStaff_courseId_fkey"`.execute(db);
    return;
  }
  // SQLite cannot drop a constraint: the table is rebuilt without it, rows and index as they were.
  await rebuild(db, "courseStaff_next", false);
}

async function rebuild(db: Kysely<any>, next: string, referencesCourse: boolean) {
  const t = columnTypes(db);
  await db.schema
    .createTable(next)
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("courseId", "text", (c) =>
      referencesCourse ? c.notNull().references("course.id").onDelete("cascade") : c.notNull(),
    )
    .addColumn("role", "text", (c) => c.notNull().modifyEnd(sql`check ("role" in ('instructor', 'assessor'))`))
    .addColumn("assignedBy", "text", (c) => c.notNull())
    .addColumn("createdAt", t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint(`${next}_pk`, ["userId", "courseId", "role"])
    .execute();
  await sql`insert into ${sql.table(next)} ("userId", "courseId", "role", "assignedBy", "createdAt")
    select "userId", "courseId", "role", "assignedBy", "createdAt" from "courseStaff"`.execute(db);
  await db.schema.dropTable("courseStaff").execute();
  await db.schema.alterTable(next).renameTo("courseStaff").execute();
  await db.schema.createIndex("courseStaff_course_idx").on("courseStaff").columns(["courseId", "role"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  // Assignments to courses never published have nothing to reference: they go.
  await db.deleteFrom("courseStaff").where("courseId", "not in", db.selectFrom("course").select("id")).execute();
  if (engineOf(db) === "postgres") {
    await sql`alter table "courseStaff" add constraint "courseStaff_courseId_fkey" foreign key ("courseId") references "course" ("id") on delete cascade`.execute(
      db,
    );
    return;
  }
  await rebuild(db, "courseStaff_previous", true);
}
