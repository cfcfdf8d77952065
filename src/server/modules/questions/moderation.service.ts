import { randomUUID } from "node:crypto";
import type { CurrentUser } from "#shared/schemas/auth.ts";
import type { ModerationQueue, ReportInput } from "#shared/schemas/questions.ts";
import { notFound } from "../../errors.ts";
import { enqueueEmail } from "../../mail/outbox.ts";
import { recordAudit } from "../audit/audit.ts";
import { displayName } from "./question-access.ts";
import { COMMON_QUESTIONS_TOPIC, noticeApprovedAnswer, postContext, type QuestionsDeps } from "./questions.service.ts";

/**
 * Moderation (decision 0056): anyone who can read a post can report it once; admins see open
 * reports and held posts in one queue, hide or restore a post (an audit entry each, cache news so
 * no instance keeps showing it), and suspend a learner from posting (audit entry and an e-mail).
 */
export async function reportPost(deps: QuestionsDeps, user: CurrentUser, postId: string, input: ReportInput) {
  const { post } = await postContext(deps, user, postId);
  if (post.state === "hidden") throw notFound("This post could not be found.");
  await deps.db
    .insertInto("postReport")
    .values({
      id: randomUUID(),
      postId: post.id,
      reporterId: user.id,
      reason: input.reason,
      note: input.note ?? null,
      createdAt: new Date().toISOString(),
      resolvedAt: null,
    })
    // One report per person and post: a second changes nothing.
    .onConflict((oc) => oc.columns(["postId", "reporterId"]).doNothing())
    .execute();
  return { ok: true as const };
}

const QUEUE_LIMIT = 200;

/** Posts with open reports and posts held for moderation, oldest first. */
export async function moderationQueue(deps: QuestionsDeps): Promise<ModerationQueue> {
  const posts = await deps.db
    .selectFrom("post as p")
    .leftJoin("post as q", "q.id", "p.questionId")
    .leftJoin("user as u", "u.id", "p.authorId")
    .select([
      "p.id",
      "p.kind",
      "p.courseId",
      "p.questionId",
      "p.title",
      "q.title as questionTitle",
      "p.html",
      "p.state",
      "p.badge",
      "p.authorId",
      "p.createdAt",
      "u.firstName",
      "u.lastName",
    ])
    .where((eb) =>
      eb.or([
        eb("p.state", "=", "held"),
        eb.exists(
          eb
            .selectFrom("postReport as r")
            .select("r.id")
            .whereRef("r.postId", "=", "p.id")
            .where("r.resolvedAt", "is", null),
        ),
      ]),
    )
    .orderBy("p.createdAt")
    .orderBy("p.id")
    .limit(QUEUE_LIMIT)
    .execute();
  const reports =
    posts.length === 0
      ? []
      : await deps.db
          .selectFrom("postReport")
          .select(["postId", "reason", "note", "createdAt"])
          .where(
            "postId",
            "in",
            posts.map((p) => p.id),
          )
          .where("resolvedAt", "is", null)
          .orderBy("createdAt")
          .execute();
  return {
    items: posts.map((p) => ({
      postId: p.id,
      questionId: p.questionId ?? p.id,
      kind: p.kind,
      courseId: p.courseId,
      title: (p.kind === "question" ? p.title : p.questionTitle) ?? "",
      html: p.html,
      state: p.state,
      author: { name: displayName(p.firstName, p.lastName), badge: p.badge },
      authorId: p.authorId,
      createdAt: p.createdAt,
      reports: reports
        .filter((r) => r.postId === p.id)
        .map((r) => ({
          reason: r.reason as ModerationQueue["items"][number]["reports"][number]["reason"],
          note: r.note,
          createdAt: r.createdAt,
        })),
    })),
  };
}

/** Hides or restores (approves, when it was held) a post; its open reports are resolved either way. */
export async function setPostState(
  deps: QuestionsDeps,
  admin: CurrentUser,
  postId: string,
  state: "hidden" | "visible",
) {
  const post = await deps.db
    .selectFrom("post")
    .select(["id", "kind", "state"])
    .where("id", "=", postId)
    .executeTakeFirst();
  if (!post) throw notFound("This post could not be found.");
  const now = new Date().toISOString();
  await deps.db.transaction().execute(async (trx) => {
    await trx.updateTable("post").set({ state }).where("id", "=", post.id).execute();
    await trx
      .updateTable("postReport")
      .set({ resolvedAt: now })
      .where("postId", "=", post.id)
      .where("resolvedAt", "is", null)
      .execute();
    await recordAudit(trx, admin, state === "hidden" ? "post.hide" : "post.restore", post.id, {
      kind: post.kind,
      from: post.state,
    });
  });
  // Every instance drops what it keeps of the lesson's common questions within a second.
  await deps.invalidation.publish(COMMON_QUESTIONS_TOPIC);
  if (state === "visible" && post.kind === "answer") await noticeApprovedAnswer(deps, post.id);
  return { postId: post.id, state };
}

/** Suspends a learner from posting, or lifts it; an audit entry and an e-mail saying why either way. */
export async function setPostingSuspension(
  deps: QuestionsDeps,
  admin: CurrentUser,
  userId: string,
  input: { suspended: boolean; reason: string },
) {
  const learner = await deps.db
    .selectFrom("user")
    .select(["id", "email", "firstName"])
    .where("id", "=", userId)
    .executeTakeFirst();
  if (!learner || learner.email.endsWith("@deleted.invalid")) throw notFound("No such learner.");
  await deps.db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom("postingSuspension")
      .select("userId")
      .where("userId", "=", userId)
      .executeTakeFirst();
    if (input.suspended) {
      await trx
        .insertInto("postingSuspension")
        .values({ userId, reason: input.reason, suspendedBy: admin.id, createdAt: new Date().toISOString() })
        .onConflict((oc) => oc.column("userId").doUpdateSet({ reason: input.reason, suspendedBy: admin.id }))
        .execute();
    } else {
      await trx.deleteFrom("postingSuspension").where("userId", "=", userId).execute();
    }
    await recordAudit(trx, admin, input.suspended ? "posting.suspend" : "posting.restore", userId, {
      reason: input.reason,
    });
    // The learner is told when it changes, not when an admin repeats it.
    if (!!before !== input.suspended)
      await enqueueEmail(trx, {
        to: learner.email,
        userId,
        template: "posting-suspended",
        data: { firstName: learner.firstName, suspended: input.suspended, reason: input.reason },
      });
  });
  return { userId, suspended: input.suspended };
}
