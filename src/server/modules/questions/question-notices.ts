import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import type { Notifications } from "#shared/schemas/questions.ts";
import type { Config } from "../../config.ts";
import type { DB } from "../../db/schema.ts";
import { badRequest } from "../../errors.ts";
import { enqueueEmail } from "../../mail/outbox.ts";
import type { CatalogueCourse } from "../courses/course-catalogue.ts";
import { plainTextOf } from "./post-markdown.ts";

/**
 * Followers of a question are told of a new answer and of an accepted one (decision 0056): a
 * notification row each and an e-mail each (unless they opted out of question mail), written in the
 * change's transaction. Every e-mail has one-click unsubscribe from that question and from all.
 */
export interface NoticeDeps {
  db: Kysely<DB>;
  config: Pick<Config, "appUrl" | "authSecret">;
}

export interface Notice {
  kind: "answer" | "accepted";
  questionId: string;
  /** Who caused it: they are not told of their own action. */
  actorId: string;
  authorName: string;
  answerHtml: string;
}

/** What a notice's e-mail names: the course, and the question the notice is about. */
export interface NoticeSubject {
  course: CatalogueCourse;
  question: { id: string; lessonId: string; title: string };
}

/**
 * Writes the followers' notifications and queues their e-mails (the outbox, decision 0050) in `trx`,
 * so both exist exactly when the change that caused them commits.
 */
export async function recordNotice(
  trx: Transaction<DB>,
  config: NoticeDeps["config"],
  subject: NoticeSubject,
  notice: Notice,
): Promise<void> {
  const followers = await trx
    .selectFrom("questionFollow as f")
    .innerJoin("user as u", "u.id", "f.userId")
    .leftJoin("questionMailOptOut as o", "o.userId", "f.userId")
    .select(["f.userId", "u.email", "u.firstName", "o.userId as optedOut"])
    .where("f.questionId", "=", notice.questionId)
    .where("f.userId", "!=", notice.actorId)
    .execute();
  if (followers.length === 0) return;
  const now = new Date().toISOString();
  await trx
    .insertInto("notification")
    .values(
      followers.map((f) => ({
        id: randomUUID(),
        userId: f.userId,
        kind: notice.kind,
        questionId: notice.questionId,
        createdAt: now,
      })),
    )
    .execute();
  const { course, question } = subject;
  const lessonTitle = course.lessonsById.get(question.lessonId)?.title ?? "";
  const url = `${config.appUrl}/course/${course.card.id}/lesson/${question.lessonId}?question=${question.id}`;
  const excerpt = plainTextOf(notice.answerHtml);
  for (const f of followers) {
    if (f.optedOut !== null) continue;
    const one = unsubscribeToken(config.authSecret, f.userId, question.id);
    const all = unsubscribeToken(config.authSecret, f.userId, ALL);
    await enqueueEmail(trx, {
      to: f.email,
      userId: f.userId,
      template: "question-activity",
      data: {
        firstName: f.firstName,
        kind: notice.kind,
        courseTitle: course.card.title,
        lessonTitle,
        questionTitle: question.title,
        authorName: notice.authorName,
        excerpt,
        url,
        unsubscribeUrl: `${config.appUrl}/questions/unsubscribe?token=${one}`,
        unsubscribeAllUrl: `${config.appUrl}/questions/unsubscribe?token=${all}`,
        oneClickUnsubscribeUrl: `${config.appUrl}/api/questions/unsubscribe?token=${one}`,
      },
      link: url,
    });
  }
}

const ALL = "*";
const signatureOf = (secret: string, userId: string, scope: string) =>
  createHmac("sha256", secret).update(`unsubscribe:questions:${userId}:${scope}`).digest("base64url");

/** `<userId>.<question id or *>.<HMAC>`, each part base64url: no sign-in needed, and none can be forged. */
export function unsubscribeToken(secret: string, userId: string, scope: string): string {
  const part = (s: string) => Buffer.from(s).toString("base64url");
  return `${part(userId)}.${part(scope)}.${signatureOf(secret, userId, scope)}`;
}

const INVALID = "This unsubscribe link is not valid.";

function readToken(secret: string, token: string) {
  const [user, scopePart, signature] = token.split(".");
  const userId = Buffer.from(user ?? "", "base64url").toString("utf8");
  const scope = Buffer.from(scopePart ?? "", "base64url").toString("utf8");
  const expected = Buffer.from(signatureOf(secret, userId, scope));
  const given = Buffer.from(signature ?? "");
  if (!userId || !scope || given.length !== expected.length || !timingSafeEqual(given, expected))
    throw badRequest(INVALID);
  return { userId, scope };
}

/** One click: stops this question's mail (unfollows it) or all question mail. Repeating it changes nothing. */
export async function unsubscribeFromQuestions(db: Kysely<DB>, secret: string, token: string): Promise<string> {
  const { userId, scope } = readToken(secret, token);
  if (scope !== ALL) {
    await db.deleteFrom("questionFollow").where("userId", "=", userId).where("questionId", "=", scope).execute();
    return "You no longer follow this question: no more e-mails or notices about it.";
  }
  const exists = await db.selectFrom("user").select("id").where("id", "=", userId).executeTakeFirst();
  if (exists)
    await db
      .insertInto("questionMailOptOut")
      .values({ userId, createdAt: new Date().toISOString() })
      .onConflict((oc) => oc.column("userId").doNothing())
      .execute();
  return "You will get no more e-mails about questions. Notices in the academy still appear.";
}

const NOTICE_LIMIT = 30;

export async function listNotifications(db: Kysely<DB>, userId: string): Promise<Notifications> {
  const [rows, unread] = await Promise.all([
    db
      .selectFrom("notification as n")
      .innerJoin("post as q", "q.id", "n.questionId")
      .select(["n.id", "n.kind", "n.questionId", "n.createdAt", "n.readAt", "q.courseId", "q.lessonId", "q.title"])
      .where("n.userId", "=", userId)
      .where("q.state", "=", "visible")
      .orderBy("n.createdAt", "desc")
      .orderBy("n.id", "desc")
      .limit(NOTICE_LIMIT)
      .execute(),
    db
      .selectFrom("notification as n")
      .innerJoin("post as q", "q.id", "n.questionId")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("n.userId", "=", userId)
      .where("n.readAt", "is", null)
      .where("q.state", "=", "visible")
      .executeTakeFirst(),
  ]);
  return {
    unread: Number(unread?.n ?? 0),
    items: rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      questionId: r.questionId,
      courseId: r.courseId,
      lessonId: r.lessonId,
      questionTitle: r.title ?? "",
      createdAt: r.createdAt,
      read: r.readAt !== null,
    })),
  };
}

export async function markNotificationsRead(db: Kysely<DB>, userId: string): Promise<void> {
  await db
    .updateTable("notification")
    .set({ readAt: new Date().toISOString() })
    .where("userId", "=", userId)
    .where("readAt", "is", null)
    .execute();
}
