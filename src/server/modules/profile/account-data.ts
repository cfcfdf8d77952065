import { verifyPassword } from "better-auth/crypto";
import type { Kysely, Transaction } from "kysely";
import { AccountErasedError, lockAccountForErasure } from "../../db/account-lock.ts";
import { eraseQuizAttempts } from "../../db/item-response-tally.ts";
import type { DB } from "../../db/schema.ts";
import { AppError } from "../../errors.ts";
import { trigger } from "../../jobs/one-off-jobs.ts";
import { deleteAccountEmails } from "../../mail/outbox.ts";
import { removeStoredFiles } from "../../storage/remove-stored-files.ts";

/** The tables whose rows belong to one learner through a `userId` column. */
type UserTable = { [T in keyof DB & string]: DB[T] extends { userId: unknown } ? T : never }[keyof DB & string];

/**
 * Everything the academy keeps about one learner, as one JSON document ('Download my data'):
 * account, enrolments, progress, attempts, orders, certificates, directory listing and, for an
 * assessor, their qualifications, assignments, calibration and marks. Secrets
 * (password hash, session tokens) and other people's data (the assessor who claimed or reviewed a
 * practical submission) are left out.
 */
export async function exportAccountData(db: Kysely<DB>, userId: string) {
  const byUser = (table: UserTable): Promise<unknown[]> =>
    db.selectFrom(table).selectAll().where("userId", "=", userId).execute();
  const account = await db
    .selectFrom("user")
    .select(["id", "email", "emailVerified", "firstName", "lastName", "nameOrder", "role", "createdAt", "updatedAt"])
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  const orders = await db
    .selectFrom("order")
    .select([
      "id",
      "courseId",
      "amount",
      "originalAmount",
      "currency",
      "couponCode",
      "kind",
      "status",
      "paidAt",
      "refundedAt",
      "createdAt",
    ])
    .where("userId", "=", userId)
    .execute();
  return {
    exportedAt: new Date().toISOString(),
    account,
    enrollments: await byUser("enrollment"),
    progress: {
      courses: await byUser("courseProgress"),
      completedLessons: await byUser("lessonCompletion"),
    },
    attempts: {
      // `tallied` is the item statistics' bookkeeping, not the learner's data.
      quizzes: (await byUser("quizAttempt")).map((a) => {
        const { tallied: _tallied, ...attempt } = a as { tallied: number };
        return attempt;
      }),
      assessments: await byUser("assessmentAttempt"),
      // The review is the learner's; who reviewed it is not: marking is blind both ways.
      practicalSubmissions: (await byUser("practicalSubmission")).map((s) => {
        const {
          claimedBy: _claimedBy,
          reviewedBy: _reviewedBy,
          ...submission
        } = s as {
          claimedBy: unknown;
          reviewedBy: unknown;
        };
        return submission;
      }),
    },
    accommodation: await byUser("learnerAccommodation"),
    orders,
    certificates: await byUser("certificate"),
    practitionerListing: (await byUser("practitionerListing"))[0] ?? null,
    emailOptOuts: await byUser("emailOptOut"),
    // Questions and answers on lessons, with the learner's own votes, follows, reports and notices.
    posts: await db
      .selectFrom("post")
      .select(["id", "kind", "courseId", "lessonId", "questionId", "title", "body", "state", "createdAt", "editedAt"])
      .where("authorId", "=", userId)
      .orderBy("createdAt")
      .execute(),
    questionVotes: await byUser("questionVote"),
    questionFollows: await byUser("questionFollow"),
    postReports: await db
      .selectFrom("postReport")
      .select(["postId", "reason", "note", "createdAt"])
      .where("reporterId", "=", userId)
      .execute(),
    notifications: await byUser("notification"),
    postingSuspension: (await byUser("postingSuspension"))[0] ?? null,
    questionMailOptOut: (await byUser("questionMailOptOut"))[0] ?? null,
    // An assessor's own records (decision 0053): qualifications, course assignments, calibration scores
    // and the marks they gave, whose learners appear only as the submission numbers they marked.
    assessor: {
      profile: (await byUser("assessorProfile"))[0] ?? null,
      courses: await byUser("courseStaff"),
      calibration: await byUser("assessorCalibration"),
      marksGiven: await db
        .selectFrom("practicalMark")
        .select(["submissionId", "courseId", "round", "decision", "scores", "feedback", "claimedAt", "markedAt"])
        .where("assessorId", "=", userId)
        .orderBy("markedAt")
        .execute(),
    },
  };
}

/**
 * The learner's posts (decision 0056): answers and reports go; a question goes with its answers
 * unless others answered it, in which case it stays as "removed" with no author, so their answers
 * keep their place. An accepted answer that goes leaves its question without one.
 */
async function erasePosts(trx: Transaction<DB>, userId: string) {
  await trx.deleteFrom("postReport").where("reporterId", "=", userId).execute();
  const answers = trx.selectFrom("post").select("id").where("authorId", "=", userId).where("kind", "=", "answer");
  await trx.updateTable("post").set({ acceptedAnswerId: null }).where("acceptedAnswerId", "in", answers).execute();
  await trx.deleteFrom("post").where("authorId", "=", userId).where("kind", "=", "answer").execute();
  const answeredByOthers = trx.selectFrom("post as a").select("a.questionId").where("a.kind", "=", "answer");
  await trx
    .updateTable("post")
    .set({
      authorId: null,
      title: "Removed question",
      body: "",
      html: "<p>This question was removed with its author's account.</p>",
    })
    .where("authorId", "=", userId)
    .where("id", "in", answeredByOthers)
    .execute();
  await trx.deleteFrom("post").where("authorId", "=", userId).execute();
}

export const WRONG_PASSWORD = "That password is not right. Your account was not deleted.";

/**
 * Deletes the account's personal data after checking its password (docs/decisions/0025): sessions
 * (signed out everywhere), password, learning records, listing, practical work and its files; the
 * user row stays as an anonymous shell because certificates (the public verify page) and orders
 * (accounting records) point at it, marked erased (`erasedAt`, decision 0051).
 */
export async function deleteAccount(db: Kysely<DB>, userId: string, password: string) {
  const credential = await db
    .selectFrom("account")
    .select("password")
    .where("userId", "=", userId)
    .where("providerId", "=", "credential")
    .executeTakeFirst();
  if (!credential?.password || !(await verifyPassword({ hash: credential.password, password })))
    throw new AppError(403, WRONG_PASSWORD);

  // One decision every other write respects (decision 0051): under the account's lock, the files on
  // record are read, every row deleted and the account marked erased. A write that committed first is
  // removed here; one that comes later finds the mark in its own transaction and is refused.
  await db.transaction().execute(async (trx) => {
    const locked = await lockAccountForErasure(trx, userId);
    if (!locked || locked.erasedAt) throw new AccountErasedError();
    const user = await trx.selectFrom("user").select("email").where("id", "=", userId).executeTakeFirstOrThrow();
    const stored = await trx
      .selectFrom("practicalFile")
      .innerJoin("practicalSubmission", "practicalSubmission.id", "practicalFile.submissionId")
      .select("practicalFile.storageKey")
      .where("practicalSubmission.userId", "=", userId)
      .execute();
    const submissions = trx.selectFrom("practicalSubmission").select("id").where("userId", "=", userId);
    await trx.deleteFrom("practicalFile").where("submissionId", "in", submissions).execute();
    // The marks of the learner's submissions go with them; an assessor's own marks of others' work stay
    // (the agreement report's sample), under no name once their account is gone.
    await trx.deleteFrom("practicalMark").where("submissionId", "in", submissions).execute();
    // The attempts leave the item statistics' running sums as they leave the database.
    await eraseQuizAttempts(trx, userId);
    for (const table of [
      "session",
      "account",
      "twoFactor",
      "passkey",
      "practicalSubmission",
      "practicalGrant",
      "courseStaff",
      "assessorProfile",
      "assessorCalibration",
      "enrollment",
      "lessonCompletion",
      "courseProgress",
      "assessmentAttempt",
      "attemptGrant",
      "learnerAccommodation",
      "practitionerListing",
      "emailOptOut",
      "activeLearnerDay",
      "learnerMilestone",
      "questionVote",
      "questionFollow",
      "notification",
      "postingSuspension",
      "questionMailOptOut",
    ] satisfies UserTable[])
      await trx.deleteFrom(table).where("userId", "=", userId).execute();
    await erasePosts(trx, userId);
    await trx.deleteFrom("verification").where("identifier", "=", user.email).execute();
    await trx.deleteFrom("pendingEnrollment").where("email", "=", user.email).execute();
    // Unsent messages would go to an address that no longer belongs to anyone here; sent ones hold
    // the address and what was said.
    await deleteAccountEmails(trx, userId, user.email);
    await trx
      .updateTable("user")
      .set({
        email: `deleted-${userId}@deleted.invalid`,
        name: "Deleted account",
        firstName: "",
        lastName: "",
        image: null,
        role: "learner",
        twoFactorEnabled: false,
        passwordSignIn: true,
        updatedAt: new Date().toISOString(),
        erasedAt: new Date().toISOString(),
      })
      .where("id", "=", userId)
      .execute();
    // The files go once the rows' removal commits, retried until storage lets them go (decision 0059).
    if (stored.length > 0) await trigger(trx, removeStoredFiles, { keys: stored.map((f) => f.storageKey) });
  });
}
