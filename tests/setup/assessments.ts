import type { FastifyInstance } from "fastify";
import { loadContent } from "#server/content/content-files.ts";
import type { Quiz, QuizResult } from "#shared/schemas/learning.ts";
import { FIXTURE_CONTENT, PRACTICAL_FIXTURE_CONTENT, request } from "./test-app.ts";

const fixture = {
  courses: [...loadContent(FIXTURE_CONTENT).courses, ...loadContent(PRACTICAL_FIXTURE_CONTENT).courses],
};

/** The answer key of a fixture quiz (module id) or final exam ("exam"), read from the content files. */
export function answerKey(courseId: string, assessment: string): Map<string, string> {
  const course = fixture.courses.find((c) => c.id === courseId)!;
  const exam = assessment === "exam" || assessment === "recertification";
  const bank = exam ? course.exam : course.modules.find((m) => m.id === assessment)?.quiz;
  return new Map((bank?.questions ?? []).map((q) => [q.id, q.correctAnswer]));
}

/** The lesson each question of a fixture quiz or exam points back to. */
export function questionLessons(courseId: string, assessment: string): Map<string, string | undefined> {
  const course = fixture.courses.find((c) => c.id === courseId)!;
  const bank = assessment === "exam" ? course.exam : course.modules.find((m) => m.id === assessment)?.quiz;
  return new Map((bank?.questions ?? []).map((q) => [q.id, q.lesson]));
}

const urlOf = (courseId: string, assessment: string) =>
  assessment === "exam"
    ? `/api/exam/${courseId}`
    : assessment === "recertification"
      ? `/api/recertification/${courseId}`
      : `/api/quiz/${courseId}/${assessment}`;

/** Answers the drawn questions: the first `correct` of them right, the rest wrong. */
export function answersFor(quiz: Quiz, key: Map<string, string>, correct: number): Record<string, string> {
  return Object.fromEntries(
    quiz.questions.map((q, i) => {
      const right = key.get(q.id)!;
      const wrong = q.options.find((o) => o.id !== right)!.id;
      return [q.id, i < correct ? right : wrong];
    }),
  );
}

/** Starts (or resumes) an attempt and submits it with `correct` right answers (all by default). */
export async function takeAssessment(
  app: FastifyInstance,
  cookie: string | undefined,
  courseId: string,
  assessment: string,
  correct = Number.POSITIVE_INFINITY,
): Promise<{ quiz: Quiz; result: QuizResult; status: number }> {
  const url = urlOf(courseId, assessment);
  const started = await request(app, "POST", `${url}/attempt`, { cookie });
  if (started.statusCode !== 200) throw new Error(`POST ${url}/attempt: ${started.statusCode} ${started.body}`);
  const quiz = started.json() as Quiz;
  const answers = answersFor(quiz, answerKey(courseId, assessment), correct);
  const res = await request(app, "POST", url, { cookie, payload: { answers, attemptId: quiz.attemptId } });
  return { quiz, result: res.json() as QuizResult, status: res.statusCode };
}

/**
 * Completes every lesson and passes every quiz and the final exam of a fixture course. A practical
 * (fixture-practical only) is left to the test: it needs an assessor.
 */
export async function completeCourse(app: FastifyInstance, cookie: string, courseId: string) {
  const course = fixture.courses.find((c) => c.id === courseId)!;
  for (const m of course.modules) {
    for (const l of m.lessons)
      await request(app, "POST", `/api/progress/${courseId}/lessons/${l.id}/complete`, { cookie });
    if (m.quiz) await takeAssessment(app, cookie, courseId, m.id);
  }
  if (course.exam) await takeAssessment(app, cookie, courseId, "exam");
}
