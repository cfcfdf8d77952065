import type { Kysely } from "kysely";
import type { DB } from "#server/db/schema.ts";
import { newCertificateId } from "#server/modules/certificates/certificates.service.ts";
import { completeCourse, takeAssessment } from "./assessments.ts";
import { enrol, request, signUpUser, type TestApp, type TestUser } from "./test-app.ts";

// Factories: each test makes the learners and the state it needs, so any test passes alone.

/** A signed-up learner (real auth), enrolled directly in the given courses. */
export async function newLearner(
  t: TestApp,
  options: { enrolledIn?: string[]; email?: string; firstName?: string; lastName?: string } = {},
): Promise<TestUser> {
  const { enrolledIn = [], ...account } = options;
  const user = await signUpUser(t.app, account);
  for (const courseId of enrolledIn) await enrol(t, user, courseId);
  return user;
}

/** Marks lessons complete through the API, as the learner's browser would; each must succeed. */
export async function completeLessons(t: TestApp, user: TestUser, courseId: string, lessonIds: string[]) {
  for (const lessonId of lessonIds) {
    const res = await request(t.app, "POST", `/api/progress/${courseId}/lessons/${lessonId}/complete`, {
      cookie: user.cookie,
    });
    if (res.statusCode !== 200) throw new Error(`completing ${lessonId}: ${res.statusCode} ${res.body}`);
  }
}

/** Passes a fixture-basics module quiz (a fresh draw) with every answer right. */
export async function passQuiz(t: TestApp, user: TestUser, moduleId: "alpha" | "beta") {
  const { status, result } = await takeAssessment(t.app, user.cookie, "fixture-basics", moduleId);
  if (status !== 200 || !result.passed) throw new Error(`quiz ${moduleId}: ${status} ${JSON.stringify(result)}`);
}

/** A learner enrolled in fixture-basics with the whole course done: every lesson, both quizzes, the final exam. */
export async function learnerWithCourseComplete(t: TestApp, options: Parameters<typeof newLearner>[1] = {}) {
  const user = await newLearner(t, { ...options, enrolledIn: ["fixture-basics"] });
  await completeCourse(t.app, user.cookie, "fixture-basics");
  return user;
}

/**
 * A certificate the learner already earned, written directly (completing a course is covered by
 * the learning tests); for tests about what happens to certificates afterwards.
 */
export async function giveCertificate(
  db: Kysely<DB>,
  user: { id: string; firstName?: string; lastName?: string },
  courseId = "fixture-basics",
): Promise<string> {
  const certificateId = newCertificateId();
  const now = new Date().toISOString();
  await db
    .insertInto("certificate")
    .values({
      id: certificateId,
      certificateId,
      userId: user.id,
      courseId,
      firstName: user.firstName ?? "Test",
      lastName: user.lastName ?? "Learner",
      completedAt: now,
      expiresAt: new Date(Date.now() + 365 * 86400_000).toISOString(),
      issuedAt: now,
      revokedAt: null,
      revokedReason: null,
    })
    .execute();
  return certificateId;
}
