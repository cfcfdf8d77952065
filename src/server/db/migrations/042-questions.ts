import { type Kysely, sql } from "kysely";
import { engineOf } from "../database.ts";
import { columnTypes } from "./types.ts";

/**
 * Learners' questions on lessons (docs/decisions/0056): questions and answers are one table of posts
 * (reports, hiding and the moderation queue treat them alike), with votes, follows, reports, in-app
 * notifications, posting suspensions, e-mail opt-outs and each lesson's promoted common questions.
 * Full-text search over questions: a GIN index on the English tsvector on PostgreSQL, an FTS5 table
 * kept by triggers on SQLite.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable("post")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("kind", "text", (c) => c.notNull().modifyEnd(sql`check ("kind" in ('question', 'answer'))`))
    .addColumn("courseId", "text", (c) => c.notNull())
    .addColumn("lessonId", "text", (c) => c.notNull())
    // An answer's question; null on questions.
    .addColumn("questionId", "text", (c) => c.references("post.id").onDelete("cascade"))
    // Null once a deleted account's question is kept anonymously for the answers under it.
    .addColumn("authorId", "text", (c) => c.references("user.id"))
    .addColumn("badge", "text", (c) => c.modifyEnd(sql`check ("badge" in ('instructor', 'assessor', 'admin'))`))
    .addColumn("title", "text")
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("html", "text", (c) => c.notNull())
    .addColumn("state", "text", (c) => c.notNull().modifyEnd(sql`check ("state" in ('visible', 'held', 'hidden'))`))
    .addColumn("acceptedAnswerId", "text")
    .addColumn("createdAt", t.timestamp, (c) => c.notNull())
    .addColumn("editedAt", t.timestamp)
    // When its followers were told of it (an answer held for moderation is told once it is approved).
    .addColumn("notifiedAt", t.timestamp)
    .execute();
  // A lesson's panel, newest first, one page at a time.
  await sql`create index "post_lesson_idx" on "post" ("lessonId", "createdAt" desc, "id" desc) where "kind" = 'question'`.execute(
    db,
  );
  await db.schema.createIndex("post_question_idx").on("post").columns(["questionId", "createdAt"]).execute();
  await db.schema.createIndex("post_course_idx").on("post").columns(["courseId", "kind", "createdAt"]).execute();
  await db.schema.createIndex("post_author_idx").on("post").column("authorId").execute();
  if (engineOf(db) === "postgres") {
    await sql`create index "post_search_idx" on "post" using gin (to_tsvector('english', coalesce("title", '') || ' ' || "body")) where "kind" = 'question'`.execute(
      db,
    );
  } else {
    await sql`create virtual table "postSearch" using fts5(title, body, content='post', content_rowid='rowid', tokenize='porter unicode61')`.execute(
      db,
    );
    await sql`create trigger "post_search_insert" after insert on "post" when new."kind" = 'question' begin
      insert into "postSearch"(rowid, title, body) values (new.rowid, new."title", new."body"); end`.execute(db);
    await sql`create trigger "post_search_delete" after delete on "post" when old."kind" = 'question' begin
      insert into "postSearch"("postSearch", rowid, title, body) values ('delete', old.rowid, old."title", old."body"); end`.execute(
      db,
    );
    await sql`create trigger "post_search_update" after update of "title", "body" on "post" when old."kind" = 'question' begin
      insert into "postSearch"("postSearch", rowid, title, body) values ('delete', old.rowid, old."title", old."body");
      insert into "postSearch"(rowid, title, body) values (new.rowid, new."title", new."body"); end`.execute(db);
  }

  for (const table of ["questionVote", "questionFollow"])
    await db.schema
      .createTable(table)
      .addColumn("questionId", "text", (c) => c.notNull().references("post.id").onDelete("cascade"))
      .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
      .addColumn("createdAt", t.timestamp, (c) => c.notNull())
      .addPrimaryKeyConstraint(`${table}_pk`, ["questionId", "userId"])
      .execute();
  await db.schema.createIndex("questionFollow_user_idx").on("questionFollow").column("userId").execute();
  await db.schema.createIndex("questionVote_user_idx").on("questionVote").column("userId").execute();

  await db.schema
    .createTable("postReport")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("postId", "text", (c) => c.notNull().references("post.id").onDelete("cascade"))
    .addColumn("reporterId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("reason", "text", (c) => c.notNull())
    .addColumn("note", "text")
    .addColumn("createdAt", t.timestamp, (c) => c.notNull())
    // Set when an admin hid or kept the post: the report leaves the queue.
    .addColumn("resolvedAt", t.timestamp)
    .addUniqueConstraint("postReport_once_uq", ["postId", "reporterId"])
    .execute();
  await db.schema.createIndex("postReport_open_idx").on("postReport").columns(["resolvedAt", "createdAt"]).execute();

  await db.schema
    .createTable("notification")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull().modifyEnd(sql`check ("kind" in ('answer', 'accepted'))`))
    .addColumn("questionId", "text", (c) => c.notNull().references("post.id").onDelete("cascade"))
    .addColumn("createdAt", t.timestamp, (c) => c.notNull())
    .addColumn("readAt", t.timestamp)
    .execute();
  await db.schema.createIndex("notification_user_idx").on("notification").columns(["userId", "createdAt"]).execute();

  await db.schema
    .createTable("postingSuspension")
    .addColumn("userId", "text", (c) => c.primaryKey().references("user.id").onDelete("cascade"))
    .addColumn("reason", "text", (c) => c.notNull())
    .addColumn("suspendedBy", "text", (c) => c.notNull())
    .addColumn("createdAt", t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("questionMailOptOut")
    .addColumn("userId", "text", (c) => c.primaryKey().references("user.id").onDelete("cascade"))
    .addColumn("createdAt", t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("commonQuestion")
    .addColumn("lessonId", "text", (c) => c.notNull())
    .addColumn("questionId", "text", (c) => c.notNull().references("post.id").onDelete("cascade"))
    .addColumn("courseId", "text", (c) => c.notNull())
    .addColumn("promotedBy", "text", (c) => c.notNull())
    .addColumn("createdAt", t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint("commonQuestion_pk", ["lessonId", "questionId"])
    .execute();
}
