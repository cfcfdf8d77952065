import { type Kysely, sql } from "kysely";
import { engineOf } from "../database.ts";
import { columnTypes } from "./types.ts";

/**
 * One unrevoked certificate per learner and course, instead of one certificate ever: after a refund
 * and a new paid enrolment the learner earns a new certificate while the revoked one stays revoked.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (engineOf(db) === "postgres") {
    await db.schema.alterTable("certificate").dropConstraint("certificate_user_course_uq").execute();
  } else {
    await rebuildSqliteCertificateTableWithoutPairConstraint(db);
  }
  await db.schema
    .createIndex("certificate_user_course_current_uq")
    .unique()
    .on("certificate")
    .columns(["userId", "courseId"])
    .where(sql.ref("revokedAt"), "is", null)
    .execute();
  await db.schema
    .createIndex("certificate_user_course_idx")
    .on("certificate")
    .columns(["userId", "courseId"])
    .execute();
}

/**
 * SQLite cannot drop a table constraint, so the table is rebuilt (its documented 12-step way).
 * Foreign keys must be off while the old table is dropped, or the drop would cascade to name changes.
 */
async function rebuildSqliteCertificateTableWithoutPairConstraint(db: Kysely<any>): Promise<void> {
  await sql`PRAGMA foreign_keys = OFF`.execute(db);
  const { rows } = await sql<{ foreign_keys: number }>`PRAGMA foreign_keys`.execute(db);
  if (rows[0]?.foreign_keys)
    throw new Error("Could not turn SQLite foreign keys off to rebuild the certificate table.");
  try {
    const t = columnTypes(db);
    await db.schema
      .createTable("certificate_rebuild")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("certificateId", "text", (c) => c.notNull().unique())
      .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
      .addColumn("courseId", "text", (c) => c.notNull().references("course.id"))
      .addColumn("firstName", "text", (c) => c.notNull())
      .addColumn("lastName", "text", (c) => c.notNull())
      .addColumn("completedAt", t.timestamp, (c) => c.notNull())
      .addColumn("expiresAt", t.timestamp, (c) => c.notNull())
      .addColumn("issuedAt", t.timestamp, (c) => c.notNull())
      .addColumn("revokedAt", t.timestamp)
      .addColumn("revokedReason", "text")
      .execute();
    await sql`insert into certificate_rebuild ("id", "certificateId", "userId", "courseId", "firstName", "lastName",
      "completedAt", "expiresAt", "issuedAt", "revokedAt", "revokedReason")
      select "id", "certificateId", "userId", "courseId", "firstName", "lastName",
      "completedAt", "expiresAt", "issuedAt", "revokedAt", "revokedReason" from certificate`.execute(db);
    await db.schema.dropTable("certificate").execute();
    await db.schema.alterTable("certificate_rebuild").renameTo("certificate").execute();
    const broken = await sql`PRAGMA foreign_key_check`.execute(db);
    if (broken.rows.length) throw new Error("The rebuilt certificate table breaks a foreign key.");
  } finally {
    await sql`PRAGMA foreign_keys = ON`.execute(db);
  }
}
