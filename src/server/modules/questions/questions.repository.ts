import { type ExpressionBuilder, type Kysely, sql } from "kysely";
import { QUESTIONS_PAGE_SIZE } from "#shared/schemas/questions.ts";
import type { DB } from "../../db/schema.ts";
import { badRequest } from "../../errors.ts";

type Posts = ExpressionBuilder<DB & { q: DB["post"] }, "q">;

/** What a reader sees: visible posts, and their own that wait for moderation. Hidden posts are gone. */
export function seenBy(viewerId: string | null) {
  return (eb: ExpressionBuilder<DB & { q: DB["post"] }, "q">) =>
    viewerId
      ? eb.or([eb("q.state", "=", "visible"), eb.and([eb("q.state", "=", "held"), eb("q.authorId", "=", viewerId)])])
      : eb("q.state", "=", "visible");
}

/** 1 or 0 on both engines (an EXISTS is a boolean on PostgreSQL, an integer on SQLite). */
const flag = (condition: ReturnType<typeof sql>) => sql<number>`case when ${condition} then 1 else 0 end`;

/** The columns of a question in a list: author's names, counts, and the viewer's own vote, in one statement. */
function summaryColumns(eb: Posts, viewerId: string | null) {
  return [
    "q.id",
    "q.courseId",
    "q.lessonId",
    "q.title",
    "q.badge",
    "q.authorId",
    "q.state",
    "q.createdAt",
    "q.editedAt",
    "q.acceptedAnswerId",
    "u.firstName",
    "u.lastName",
    eb
      .selectFrom("post as a")
      .select((e) => e.fn.countAll<number>().as("n"))
      .whereRef("a.questionId", "=", "q.id")
      .where("a.state", "=", "visible")
      .as("answerCount"),
    eb
      .selectFrom("questionVote as v")
      .select((e) => e.fn.countAll<number>().as("n"))
      .whereRef("v.questionId", "=", "q.id")
      .as("upvotes"),
    flag(
      sql`exists (select 1 from "questionVote" as "mine" where "mine"."questionId" = "q"."id" and "mine"."userId" = ${viewerId})`,
    ).as("upvoted"),
    flag(
      sql`exists (select 1 from "post" as "s" where "s"."questionId" = "q"."id" and "s"."state" = 'visible' and "s"."badge" is not null)`,
    ).as("staffAnswered"),
  ] as const;
}

export interface SummaryRow {
  id: string;
  courseId: string;
  lessonId: string;
  title: string | null;
  badge: "instructor" | "assessor" | "admin" | null;
  authorId: string | null;
  state: "visible" | "held" | "hidden";
  createdAt: string;
  editedAt: string | null;
  acceptedAnswerId: string | null;
  firstName: string | null;
  lastName: string | null;
  answerCount: number | string | bigint | null;
  upvotes: number | string | bigint | null;
  upvoted: number;
  staffAnswered: number;
}

const encodeCursor = (row: { createdAt: string; id: string }) =>
  Buffer.from(`${row.createdAt}|${row.id}`).toString("base64url");
function decodeCursor(cursor: string): { createdAt: string; id: string } {
  const [createdAt, id] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  if (!createdAt || !id || Number.isNaN(Date.parse(createdAt))) throw badRequest("That page cursor is not valid.");
  return { createdAt, id };
}

/** One page of a lesson's questions, newest first: one statement over the lesson's index, however many there are. */
export async function lessonQuestionPage(
  db: Kysely<DB>,
  options: { courseId: string; lessonId: string; viewerId: string | null; cursor?: string },
) {
  const after = options.cursor ? decodeCursor(options.cursor) : null;
  const rows = (await db
    .selectFrom("post as q")
    .leftJoin("user as u", "u.id", "q.authorId")
    .select((eb) => summaryColumns(eb, options.viewerId))
    .where("q.kind", "=", "question")
    .where("q.lessonId", "=", options.lessonId)
    .where("q.courseId", "=", options.courseId)
    .where(seenBy(options.viewerId))
    .$if(after !== null, (qb) =>
      qb.where((eb) =>
        eb.or([
          eb("q.createdAt", "<", after?.createdAt ?? ""),
          eb.and([eb("q.createdAt", "=", after?.createdAt ?? ""), eb("q.id", "<", after?.id ?? "")]),
        ]),
      ),
    )
    .orderBy("q.createdAt", "desc")
    .orderBy("q.id", "desc")
    .limit(QUESTIONS_PAGE_SIZE + 1)
    .execute()) as SummaryRow[];
  const page = rows.slice(0, QUESTIONS_PAGE_SIZE);
  const last = page.at(-1);
  return { rows: page, nextCursor: rows.length > QUESTIONS_PAGE_SIZE && last ? encodeCursor(last) : null };
}

export async function questionRow(db: Kysely<DB>, questionId: string, viewerId: string | null) {
  return (await db
    .selectFrom("post as q")
    .leftJoin("user as u", "u.id", "q.authorId")
    .select((eb) => [...summaryColumns(eb, viewerId), "q.body", "q.html"])
    .where("q.id", "=", questionId)
    .where("q.kind", "=", "question")
    .where(seenBy(viewerId))
    .executeTakeFirst()) as (SummaryRow & { body: string; html: string }) | undefined;
}

export function answerRows(db: Kysely<DB>, questionId: string, viewerId: string | null) {
  return db
    .selectFrom("post as q")
    .leftJoin("user as u", "u.id", "q.authorId")
    .select([
      "q.id",
      "q.authorId",
      "q.badge",
      "q.body",
      "q.html",
      "q.state",
      "q.createdAt",
      "q.editedAt",
      "u.firstName",
      "u.lastName",
    ])
    .where("q.questionId", "=", questionId)
    .where(seenBy(viewerId))
    .orderBy("q.createdAt")
    .orderBy("q.id")
    .execute();
}

/** The post (question or answer) with what its routes check: its author, course and lesson, its question. */
export function postRow(db: Kysely<DB>, postId: string) {
  return db
    .selectFrom("post")
    .select([
      "id",
      "kind",
      "courseId",
      "lessonId",
      "questionId",
      "authorId",
      "badge",
      "state",
      "title",
      "html",
      "acceptedAnswerId",
      "notifiedAt",
    ])
    .where("id", "=", postId)
    .executeTakeFirst();
}

const STOP_WORDS = new Set(
  "a an and are as at be but by can do does for from how i if in is it my of on or should so than that the their then there this to was what when where which who why will with you your".split(
    " ",
  ),
);

/** The words of a search, safe for either engine's query syntax (letters and digits only). */
export function searchWords(search: string): string[] {
  const words = search.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words.filter((w) => w.length > 1 && !STOP_WORDS.has(w)))].slice(0, 8);
}

/**
 * Questions of a course matching any word of the search, best match first: FTS5's bm25 on SQLite,
 * ts_rank over the English tsvector on PostgreSQL (both stem: "eating" finds "eat"). Visible only.
 */
export async function searchQuestions(
  db: Kysely<DB>,
  engine: "sqlite" | "postgres",
  options: { courseId: string; search: string; lessonId?: string; limit: number },
) {
  const words = searchWords(options.search);
  if (words.length === 0) return [];
  const lesson = options.lessonId ? sql`and "q"."lessonId" = ${options.lessonId}` : sql``;
  const answers = sql`(select count(*) from "post" as "a" where "a"."questionId" = "q"."id" and "a"."state" = 'visible')`;
  const staff = sql`exists (select 1 from "post" as "s" where "s"."questionId" = "q"."id" and "s"."state" = 'visible' and "s"."badge" is not null)`;
  const columns = sql`"q"."id", "q"."lessonId", "q"."title", "q"."createdAt", "q"."acceptedAnswerId", ${answers} as "answerCount", case when ${staff} then 1 else 0 end as "staffAnswered"`;
  type Row = {
    id: string;
    lessonId: string;
    title: string | null;
    createdAt: string;
    acceptedAnswerId: string | null;
    answerCount: number | string;
    staffAnswered: number;
  };
  if (engine === "postgres") {
    const query = words.map((w) => `${w}:*`).join(" | ");
    const vector = sql`to_tsvector('english', coalesce("q"."title", '') || ' ' || "q"."body")`;
    const { rows } = await sql<Row>`select ${columns} from "post" as "q"
      where "q"."kind" = 'question' and "q"."courseId" = ${options.courseId} and "q"."state" = 'visible' ${lesson}
        and ${vector} @@ to_tsquery('english', ${query})
      order by ts_rank(${vector}, to_tsquery('english', ${query})) desc, "q"."createdAt" desc
      limit ${options.limit}`.execute(db);
    return rows;
  }
  const query = words.map((w) => `"${w}"*`).join(" OR ");
  const { rows } =
    await sql<Row>`select ${columns} from "postSearch" join "post" as "q" on "q"."rowid" = "postSearch"."rowid"
    where "postSearch" match ${query} and "q"."courseId" = ${options.courseId} and "q"."state" = 'visible' ${lesson}
    order by bm25("postSearch"), "q"."createdAt" desc
    limit ${options.limit}`.execute(db);
  return rows;
}

/** Visible posts an author has had published, for the rule that a new account's first posts with links wait. */
export async function publishedPostCount(db: Kysely<DB>, authorId: string): Promise<number> {
  const row = await db
    .selectFrom("post")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("authorId", "=", authorId)
    .where("state", "=", "visible")
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
