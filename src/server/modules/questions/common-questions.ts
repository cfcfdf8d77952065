import type { Kysely } from "kysely";
import type { CurrentUser } from "#shared/schemas/auth.ts";
import type { CommonQuestions } from "#shared/schemas/questions.ts";
import type { DB } from "../../db/schema.ts";
import { conflict, forbidden } from "../../errors.ts";
import type { Invalidation } from "../../invalidation/invalidation.ts";
import { COMMON_QUESTIONS_TOPIC, type QuestionsDeps, questionContext } from "./questions.service.ts";

/**
 * A lesson's "Common questions": questions with their accepted answer that staff promoted, stored
 * per lesson id (decision 0056). Every reader of a lesson reads them, so each process keeps them in
 * memory per lesson, dropped on every instance within a second when a promotion, an edit, a deletion
 * or a moderator's hide may have changed them (cache news, `COMMON_QUESTIONS_TOPIC`).
 */
export class CommonQuestionsCache {
  private readonly byLesson = new Map<string, Promise<CommonQuestions>>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly db: Kysely<DB>,
    invalidation: Invalidation,
  ) {
    this.unsubscribe = invalidation.subscribe(COMMON_QUESTIONS_TOPIC, () => this.byLesson.clear());
  }

  dispose() {
    this.unsubscribe();
  }

  read(courseId: string, lessonId: string): Promise<CommonQuestions> {
    const key = `${courseId}\u0000${lessonId}`;
    let entry = this.byLesson.get(key);
    if (!entry) {
      entry = this.load(courseId, lessonId).catch((error) => {
        this.byLesson.delete(key);
        throw error;
      });
      this.byLesson.set(key, entry);
    }
    return entry;
  }

  private async load(courseId: string, lessonId: string): Promise<CommonQuestions> {
    const rows = await this.db
      .selectFrom("commonQuestion as c")
      .innerJoin("post as q", "q.id", "c.questionId")
      .innerJoin("post as a", "a.id", "q.acceptedAnswerId")
      .select(["q.id", "q.title", "q.html as questionHtml", "a.html as answerHtml"])
      .where("c.lessonId", "=", lessonId)
      .where("c.courseId", "=", courseId)
      .where("q.state", "=", "visible")
      .where("a.state", "=", "visible")
      .orderBy("c.createdAt")
      .orderBy("q.id")
      .execute();
    return {
      items: rows.map((r) => ({
        questionId: r.id,
        title: r.title ?? "",
        questionHtml: r.questionHtml,
        answerHtml: r.answerHtml,
      })),
    };
  }
}

/** Staff promote a question with an accepted answer into its lesson's common questions, or take it out. */
export async function setPromoted(deps: QuestionsDeps, user: CurrentUser, questionId: string, on: boolean) {
  const { post, reader } = await questionContext(deps, user, questionId);
  if (reader.badge === null) throw forbidden("Only the course's staff can promote a question.");
  if (on) {
    if (post.state !== "visible" || !post.acceptedAnswerId)
      throw conflict("Accept an answer first: a common question shows its accepted answer.");
    await deps.db
      .insertInto("commonQuestion")
      .values({
        lessonId: post.lessonId,
        questionId: post.id,
        courseId: post.courseId,
        promotedBy: user.id,
        createdAt: new Date().toISOString(),
      })
      .onConflict((oc) => oc.columns(["lessonId", "questionId"]).doNothing())
      .execute();
  } else {
    await deps.db.deleteFrom("commonQuestion").where("questionId", "=", post.id).execute();
  }
  await deps.invalidation.publish(COMMON_QUESTIONS_TOPIC);
  return { promoted: on };
}
