import type { Kysely } from "kysely";

/**
 * The owner's dashboard (docs/decisions/0030) reads by time: each figure is a range over one of these
 * columns, so each gets an index; the activity indexes also carry the learner, so counting distinct
 * active learners reads the index alone.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const index = (name: string, table: string, columns: string[]) =>
    db.schema.createIndex(name).on(table).columns(columns).execute();
  await index("lessonCompletion_completedAt_idx", "lessonCompletion", ["completedAt", "userId"]);
  await index("quizAttempt_createdAt_idx", "quizAttempt", ["createdAt", "userId"]);
  await index("enrollment_createdAt_idx", "enrollment", ["createdAt"]);
  await index("enrollment_course_createdAt_idx", "enrollment", ["courseId", "createdAt"]);
  await index("user_createdAt_idx", "user", ["createdAt"]);
  await index("order_paidAt_idx", "order", ["paidAt"]);
  await index("order_refundedAt_idx", "order", ["refundedAt"]);
  await index("courseProgress_completedAt_idx", "courseProgress", ["completedAt"]);
  await index("certificate_issuedAt_idx", "certificate", ["issuedAt"]);
  await index("certificate_revokedAt_idx", "certificate", ["revokedAt"]);
  await index("certificateRenewal_renewedAt_idx", "certificateRenewal", ["renewedAt"]);
}
