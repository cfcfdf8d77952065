import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { CurrentUser } from "#shared/schemas/auth.ts";
import type {
  LessonQuestions,
  NewAnswer,
  NewQuestion,
  QuestionDetail,
  QuestionSearch,
  QuestionSummary,
  StaffQueue,
} from "#shared/schemas/questions.ts";
import { requireLiveAccount } from "../../db/account-lock.ts";
import type { Engine } from "../../db/database.ts";
import type { DB } from "../../db/schema.ts";
import { AppError, badRequest, forbidden, notFound } from "../../errors.ts";
import type { Invalidation } from "../../invalidation/invalidation.ts";
import { COMMON_QUESTIONS_TOPIC } from "../../invalidation/topics.ts";
import type { HitCounter } from "../../limits/hit-counter.ts";
import type { CatalogueCourse, CourseCatalogue } from "../courses/course-catalogue.ts";
import { renderPost } from "./post-markdown.ts";
import {
  canRead,
  coursesAnsweredBy,
  displayName,
  postingRefusal,
  QUESTION_NOT_FOUND,
  type Reader,
  readerOf,
  requirePoster,
  requireRead,
} from "./question-access.ts";
import { type NoticeDeps, recordNotice } from "./question-notices.ts";
import {
  answerRows,
  lessonQuestionPage,
  postRow,
  publishedPostCount,
  questionRow,
  type SummaryRow,
  searchQuestions,
} from "./questions.repository.ts";

export interface QuestionsDeps extends NoticeDeps {
  engine: Engine;
  counters: HitCounter;
  invalidation: Invalidation;
  catalogue: CourseCatalogue;
}

/** Posts (questions and answers together) per account per window; edits do not count. */
export const POSTS_PER_WINDOW = 10;
export const POST_WINDOW_MS = 10 * 60_000;
/** An account with fewer published posts than this has its posts with links held for moderation. */
export const TRUSTED_AFTER_POSTS = 3;
/** Cache news: a lesson's common questions may have changed (promoted, hidden, edited, deleted). */
export { COMMON_QUESTIONS_TOPIC };

const num = (v: unknown) => Number(v ?? 0);

function toSummary(row: SummaryRow, viewerId: string | null): QuestionSummary {
  return {
    id: row.id,
    courseId: row.courseId,
    lessonId: row.lessonId,
    title: row.title ?? "",
    author: { name: displayName(row.firstName, row.lastName), badge: row.badge },
    createdAt: row.createdAt,
    editedAt: row.editedAt,
    state: row.state,
    answerCount: num(row.answerCount),
    upvotes: num(row.upvotes),
    upvoted: num(row.upvoted) !== 0,
    answered: row.acceptedAnswerId !== null || num(row.staffAnswered) !== 0,
    mine: viewerId !== null && row.authorId === viewerId,
  };
}

export async function lessonQuestions(
  deps: QuestionsDeps,
  reader: Reader,
  course: CatalogueCourse,
  lessonId: string,
  cursor?: string,
): Promise<LessonQuestions> {
  requireRead(reader, course, lessonId);
  const viewerId = reader.user?.id ?? null;
  const page = await lessonQuestionPage(deps.db, { courseId: course.card.id, lessonId, viewerId, cursor });
  const refusal = postingRefusal(reader);
  return {
    items: page.rows.map((r) => toSummary(r, viewerId)),
    nextCursor: page.nextCursor,
    canPost: refusal === null,
    postingRefusal: reader.user ? refusal : null,
  };
}

/** The question's course and the reader there, after the read rule; 404 for a question the reader cannot see. */
export async function questionContext(deps: QuestionsDeps, user: CurrentUser | null, questionId: string) {
  const post = await postRow(deps.db, questionId);
  const course = post && (await deps.catalogue.course(post.courseId));
  if (post?.kind !== "question" || !course) throw notFound(QUESTION_NOT_FOUND);
  const reader = await readerOf(deps.db, user, post.courseId);
  requireRead(reader, course, post.lessonId);
  return { post, course, reader };
}

/** A post's context for its own routes (edit, delete, accept, report): the post, its course, its question. */
export async function postContext(deps: QuestionsDeps, user: CurrentUser, postId: string) {
  const post = await postRow(deps.db, postId);
  const course = post && (await deps.catalogue.course(post.courseId));
  if (!post || !course) throw notFound("This post could not be found.");
  const reader = await readerOf(deps.db, user, post.courseId);
  if (!canRead(reader, course, post.lessonId)) throw notFound("This post could not be found.");
  return { post, course, reader };
}

export async function getQuestion(deps: QuestionsDeps, reader: Reader, questionId: string): Promise<QuestionDetail> {
  const viewerId = reader.user?.id ?? null;
  const [row, answers, following, promoted] = await Promise.all([
    questionRow(deps.db, questionId, viewerId),
    answerRows(deps.db, questionId, viewerId),
    viewerId
      ? deps.db
          .selectFrom("questionFollow")
          .select("userId")
          .where("questionId", "=", questionId)
          .where("userId", "=", viewerId)
          .executeTakeFirst()
      : undefined,
    deps.db.selectFrom("commonQuestion").select("lessonId").where("questionId", "=", questionId).executeTakeFirst(),
  ]);
  if (!row) throw notFound(QUESTION_NOT_FOUND);
  const mine = viewerId !== null && row.authorId === viewerId;
  const canPost = postingRefusal(reader) === null;
  return {
    ...toSummary(row, viewerId),
    html: row.html,
    body: mine ? row.body : null,
    acceptedAnswerId: row.acceptedAnswerId,
    following: !!following,
    canPost,
    canAccept: reader.badge !== null || mine,
    canPromote: reader.badge !== null,
    promoted: !!promoted,
    answers: answers
      .map((a) => ({
        id: a.id,
        html: a.html,
        body: viewerId !== null && a.authorId === viewerId ? a.body : null,
        author: { name: displayName(a.firstName, a.lastName), badge: a.badge },
        createdAt: a.createdAt,
        editedAt: a.editedAt,
        state: a.state,
        accepted: a.id === row.acceptedAnswerId,
        mine: viewerId !== null && a.authorId === viewerId,
      }))
      // The accepted answer first, the others in the order they came.
      .sort((x, y) => Number(y.accepted) - Number(x.accepted)),
  };
}

/** Counts the post against the account's window; past the limit, 429 and nothing written. */
async function countPost(deps: QuestionsDeps, user: CurrentUser) {
  const hits = await deps.counters.count(`questions:post:${user.id}`, POST_WINDOW_MS);
  if (hits.count > POSTS_PER_WINDOW)
    throw new AppError(
      429,
      `You can post ${POSTS_PER_WINDOW} questions and answers in ${POST_WINDOW_MS / 60_000} minutes. Try again a little later.`,
      { retryAt: new Date(hits.windowEndsAt).toISOString() },
    );
}

/** Visible at once, or held for moderation: a learner's post with links while they have few published posts. */
async function initialState(deps: QuestionsDeps, reader: Reader, user: CurrentUser, hasLinks: boolean) {
  if (!hasLinks || reader.badge !== null) return "visible" as const;
  return (await publishedPostCount(deps.db, user.id)) < TRUSTED_AFTER_POSTS ? ("held" as const) : ("visible" as const);
}

export async function askQuestion(
  deps: QuestionsDeps,
  reader: Reader,
  course: CatalogueCourse,
  lessonId: string,
  input: NewQuestion,
): Promise<QuestionDetail> {
  requireRead(reader, course, lessonId);
  const user = requirePoster(reader);
  await countPost(deps, user);
  const rendered = renderPost(input.body);
  const state = await initialState(deps, reader, user, rendered.hasLinks || /https?:|www\./i.test(input.title));
  const id = randomUUID();
  const now = new Date().toISOString();
  await deps.db.transaction().execute(async (trx) => {
    // Nothing posted for an account erased since its session was read (decision 0051).
    await requireLiveAccount(trx, user.id);
    await trx
      .insertInto("post")
      .values({
        id,
        kind: "question",
        courseId: course.card.id,
        lessonId,
        questionId: null,
        authorId: user.id,
        badge: reader.badge,
        title: input.title,
        body: input.body,
        html: rendered.html,
        state,
        acceptedAnswerId: null,
        createdAt: now,
        editedAt: null,
        notifiedAt: now,
      })
      .execute();
    // The asker follows their own question.
    await trx.insertInto("questionFollow").values({ questionId: id, userId: user.id, createdAt: now }).execute();
  });
  return getQuestion(deps, reader, id);
}

export async function editQuestion(
  deps: QuestionsDeps,
  user: CurrentUser,
  questionId: string,
  input: { title?: string | undefined; body?: string | undefined },
): Promise<QuestionDetail> {
  const { post, reader } = await questionContext(deps, user, questionId);
  if (post.authorId !== user.id) throw forbidden("Only its author can edit a question.");
  if (input.title === undefined && input.body === undefined) throw badRequest("Change the title or the text.");
  const current = await deps.db
    .selectFrom("post")
    .select(["title", "body"])
    .where("id", "=", post.id)
    .executeTakeFirstOrThrow();
  const title = input.title ?? current.title ?? "";
  const body = input.body ?? current.body;
  const rendered = renderPost(body);
  const relinked = rendered.hasLinks || /https?:|www\./i.test(title);
  const state = post.state === "visible" ? await initialState(deps, reader, user, relinked) : post.state;
  await deps.db
    .updateTable("post")
    .set({ title, body, html: rendered.html, state, editedAt: new Date().toISOString() })
    .where("id", "=", post.id)
    // An erasure since the context was read leaves the post authorless: the edit then changes nothing.
    .where("authorId", "=", user.id)
    .execute();
  await deps.invalidation.publish(COMMON_QUESTIONS_TOPIC);
  return getQuestion(deps, reader, post.id);
}

/** The author deletes their question, and with it its answers, votes, follows and notices. */
export async function deleteQuestion(deps: QuestionsDeps, user: CurrentUser, questionId: string): Promise<void> {
  const { post } = await questionContext(deps, user, questionId);
  if (post.authorId !== user.id) throw forbidden("Only its author can delete a question.");
  await deps.db.deleteFrom("post").where("id", "=", post.id).execute();
  await deps.invalidation.publish(COMMON_QUESTIONS_TOPIC);
}

export async function postAnswer(
  deps: QuestionsDeps,
  user: CurrentUser,
  questionId: string,
  input: NewAnswer,
): Promise<QuestionDetail> {
  const { post, course, reader } = await questionContext(deps, user, questionId);
  requirePoster(reader);
  if (post.state !== "visible") throw forbidden("This question is waiting for moderation: it cannot be answered yet.");
  await countPost(deps, user);
  const rendered = renderPost(input.body);
  const state = await initialState(deps, reader, user, rendered.hasLinks);
  const id = randomUUID();
  const now = new Date().toISOString();
  const notice = {
    kind: "answer" as const,
    questionId: post.id,
    actorId: user.id,
    authorName: displayName(user.firstName, user.lastName),
    answerHtml: rendered.html,
  };
  await deps.db.transaction().execute(async (trx) => {
    // Nothing posted for an account erased since its session was read (decision 0051).
    await requireLiveAccount(trx, user.id);
    await trx
      .insertInto("post")
      .values({
        id,
        kind: "answer",
        courseId: post.courseId,
        lessonId: post.lessonId,
        questionId: post.id,
        authorId: user.id,
        badge: reader.badge,
        title: null,
        body: input.body,
        html: rendered.html,
        state,
        acceptedAnswerId: null,
        createdAt: now,
        editedAt: null,
        notifiedAt: state === "visible" ? now : null,
      })
      .execute();
    if (state === "visible")
      await recordNotice(
        trx,
        deps.config,
        { course, question: { id: post.id, lessonId: post.lessonId, title: post.title ?? "" } },
        notice,
      );
  });
  return getQuestion(deps, reader, post.id);
}

/** Tells followers of an answer that was held and is now approved (once: `notifiedAt` says it was told). */
export async function noticeApprovedAnswer(deps: QuestionsDeps, answerId: string): Promise<void> {
  const answer = await deps.db
    .selectFrom("post as a")
    .innerJoin("post as q", "q.id", "a.questionId")
    .leftJoin("user as u", "u.id", "a.authorId")
    .select([
      "a.id",
      "a.html",
      "a.authorId",
      "a.notifiedAt",
      "q.id as questionId",
      "q.lessonId",
      "q.courseId",
      "q.title",
      "u.firstName",
      "u.lastName",
    ])
    .where("a.id", "=", answerId)
    .executeTakeFirst();
  const course = answer && (await deps.catalogue.course(answer.courseId));
  if (!answer || answer.notifiedAt !== null || !course) return;
  const notice = {
    kind: "answer" as const,
    questionId: answer.questionId,
    actorId: answer.authorId ?? "",
    authorName: displayName(answer.firstName, answer.lastName),
    answerHtml: answer.html,
  };
  await deps.db.transaction().execute(async (trx) => {
    const claimed = await trx
      .updateTable("post")
      .set({ notifiedAt: new Date().toISOString() })
      .where("id", "=", answer.id)
      .where("notifiedAt", "is", null)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 1)
      await recordNotice(
        trx,
        deps.config,
        { course, question: { id: answer.questionId, lessonId: answer.lessonId, title: answer.title ?? "" } },
        notice,
      );
  });
}

async function answerContext(deps: QuestionsDeps, user: CurrentUser, answerId: string) {
  const context = await postContext(deps, user, answerId);
  if (context.post.kind !== "answer" || !context.post.questionId) throw notFound("This answer could not be found.");
  return { ...context, questionId: context.post.questionId };
}

export async function editAnswer(deps: QuestionsDeps, user: CurrentUser, answerId: string, input: NewAnswer) {
  const { post, reader, questionId } = await answerContext(deps, user, answerId);
  if (post.authorId !== user.id) throw forbidden("Only its author can edit an answer.");
  const rendered = renderPost(input.body);
  const state = post.state === "visible" ? await initialState(deps, reader, user, rendered.hasLinks) : post.state;
  await deps.db
    .updateTable("post")
    .set({ body: input.body, html: rendered.html, state, editedAt: new Date().toISOString() })
    .where("id", "=", post.id)
    .where("authorId", "=", user.id)
    .execute();
  await deps.invalidation.publish(COMMON_QUESTIONS_TOPIC);
  return getQuestion(deps, reader, questionId);
}

export async function deleteAnswer(deps: QuestionsDeps, user: CurrentUser, answerId: string) {
  const { post, reader, questionId } = await answerContext(deps, user, answerId);
  if (post.authorId !== user.id) throw forbidden("Only its author can delete an answer.");
  await deps.db.transaction().execute(async (trx) => {
    await trx.updateTable("post").set({ acceptedAnswerId: null }).where("acceptedAnswerId", "=", post.id).execute();
    await trx.deleteFrom("post").where("id", "=", post.id).execute();
  });
  await deps.invalidation.publish(COMMON_QUESTIONS_TOPIC);
  return getQuestion(deps, reader, questionId);
}

/** Staff of the course or the asker accept an answer (another accepted answer gives way to it). */
export async function acceptAnswer(deps: QuestionsDeps, user: CurrentUser, answerId: string) {
  const { post, course, reader, questionId } = await answerContext(deps, user, answerId);
  const question = await postRow(deps.db, questionId);
  if (!question) throw notFound(QUESTION_NOT_FOUND);
  if (reader.badge === null && question.authorId !== user.id)
    throw forbidden("Only the asker or the course's staff can accept an answer.");
  if (post.state !== "visible") throw forbidden("This answer is waiting for moderation.");
  if (question.acceptedAnswerId === post.id) return getQuestion(deps, reader, questionId);
  const answer = await deps.db
    .selectFrom("post as a")
    .leftJoin("user as u", "u.id", "a.authorId")
    .select(["a.html", "u.firstName", "u.lastName"])
    .where("a.id", "=", post.id)
    .executeTakeFirstOrThrow();
  const notice = {
    kind: "accepted" as const,
    questionId,
    actorId: user.id,
    authorName: displayName(answer.firstName, answer.lastName),
    answerHtml: answer.html,
  };
  await deps.db.transaction().execute(async (trx) => {
    await trx.updateTable("post").set({ acceptedAnswerId: post.id }).where("id", "=", questionId).execute();
    await recordNotice(
      trx,
      deps.config,
      { course, question: { id: questionId, lessonId: question.lessonId, title: question.title ?? "" } },
      notice,
    );
  });
  await deps.invalidation.publish(COMMON_QUESTIONS_TOPIC);
  return getQuestion(deps, reader, questionId);
}

/** One upvote per account and question: a second is the same upvote. */
export async function setUpvote(deps: QuestionsDeps, user: CurrentUser, questionId: string, on: boolean) {
  const { reader, post } = await questionContext(deps, user, questionId);
  requirePoster(reader);
  if (post.state !== "visible") throw forbidden("This question is waiting for moderation.");
  if (on)
    await deps.db.transaction().execute(async (trx) => {
      await requireLiveAccount(trx, user.id);
      await trx
        .insertInto("questionVote")
        .values({ questionId, userId: user.id, createdAt: new Date().toISOString() })
        .onConflict((oc) => oc.columns(["questionId", "userId"]).doNothing())
        .execute();
    });
  else
    await deps.db
      .deleteFrom("questionVote")
      .where("questionId", "=", questionId)
      .where("userId", "=", user.id)
      .execute();
  const count = await deps.db
    .selectFrom("questionVote")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("questionId", "=", questionId)
    .executeTakeFirst();
  return { upvoted: on, upvotes: num(count?.n) };
}

/** Following needs only read access: a visitor of the preview lesson who signed in may follow too. */
export async function setFollow(deps: QuestionsDeps, user: CurrentUser, questionId: string, on: boolean) {
  await questionContext(deps, user, questionId);
  if (on)
    await deps.db.transaction().execute(async (trx) => {
      await requireLiveAccount(trx, user.id);
      await trx
        .insertInto("questionFollow")
        .values({ questionId, userId: user.id, createdAt: new Date().toISOString() })
        .onConflict((oc) => oc.columns(["questionId", "userId"]).doNothing())
        .execute();
    });
  else
    await deps.db
      .deleteFrom("questionFollow")
      .where("questionId", "=", questionId)
      .where("userId", "=", user.id)
      .execute();
  return { following: on };
}

const SEARCH_LIMIT = 20;

/** The course-wide search and the similar-question hints: enrolled learners and staff. */
export async function searchCourseQuestions(
  deps: QuestionsDeps,
  reader: Reader,
  course: CatalogueCourse,
  search: string,
  lessonId?: string,
): Promise<QuestionSearch> {
  if (!reader.user) throw new AppError(401, "Sign in to search the course's questions.");
  if (reader.badge === null && !reader.enrolled) throw forbidden("Enroll in this course to search its questions.");
  const rows = await searchQuestions(deps.db, deps.engine, {
    courseId: course.card.id,
    search,
    ...(lessonId ? { lessonId } : {}),
    limit: SEARCH_LIMIT,
  });
  return {
    items: rows.map((r) => ({
      id: r.id,
      lessonId: r.lessonId,
      lessonTitle: course.lessonsById.get(r.lessonId)?.title ?? "",
      title: r.title ?? "",
      answerCount: num(r.answerCount),
      answered: r.acceptedAnswerId !== null || num(r.staffAnswered) !== 0,
      createdAt: r.createdAt,
    })),
  };
}

const QUEUE_LIMIT = 200;

/** Questions with no staff answer yet, oldest first, in the courses the staff member answers for. */
export async function staffQueue(deps: QuestionsDeps, user: CurrentUser): Promise<StaffQueue> {
  const courses = await coursesAnsweredBy(deps.db, user);
  if (courses !== null && courses.length === 0)
    throw forbidden("Only the instructors, assessors and admins of a course answer its questions.");
  const catalogue = await deps.catalogue.get();
  const rows = await deps.db
    .selectFrom("post as q")
    .leftJoin("user as u", "u.id", "q.authorId")
    .select(["q.id", "q.courseId", "q.lessonId", "q.title", "q.badge", "q.createdAt", "u.firstName", "u.lastName"])
    .where("q.kind", "=", "question")
    .where("q.state", "=", "visible")
    .$if(courses !== null, (qb) => qb.where("q.courseId", "in", courses ?? []))
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("post as s")
            .select("s.id")
            .whereRef("s.questionId", "=", "q.id")
            .where("s.state", "=", "visible")
            .where("s.badge", "is not", null),
        ),
      ),
    )
    .orderBy("q.createdAt")
    .orderBy("q.id")
    .limit(QUEUE_LIMIT)
    .execute();
  const now = Date.now();
  return {
    items: rows.flatMap((r) => {
      const course = catalogue.byId.get(r.courseId);
      if (!course) return [];
      return [
        {
          id: r.id,
          courseId: r.courseId,
          courseTitle: course.card.title,
          lessonId: r.lessonId,
          lessonTitle: course.lessonsById.get(r.lessonId)?.title ?? "",
          title: r.title ?? "",
          author: { name: displayName(r.firstName, r.lastName), badge: r.badge },
          createdAt: r.createdAt,
          waitingSeconds: Math.max(0, Math.floor((now - Date.parse(r.createdAt)) / 1000)),
        },
      ];
    }),
  };
}

/** The reader of a course from a request's user (route helper). */
export const courseReader = (db: Kysely<DB>, user: CurrentUser | null, course: CatalogueCourse) =>
  readerOf(db, user, course.card.id);
