import type { Kysely } from "kysely";
import type { CurrentUser } from "#shared/schemas/auth.ts";
import type { DB } from "../../db/schema.ts";
import { forbidden, notFound, unauthorized } from "../../errors.ts";
import type { CatalogueCourse } from "../courses/course-catalogue.ts";
import { isEnrolled } from "../enrollments/enrollments.repository.ts";
import { coursesStaffedBy, isCourseStaff } from "../staff/course-staff.ts";

export type StaffBadge = "instructor" | "assessor" | "admin";

/** Who is reading or writing in a course's questions, and what they may do there. */
export interface Reader {
  user: CurrentUser | null;
  /** The staff badge the reader's posts carry in this course, or null for a learner. */
  badge: StaffBadge | null;
  enrolled: boolean;
  /** Why an admin suspended them from posting, when they are. */
  suspension: string | null;
}

export const NOT_ENROLLED_TO_POST = "Only learners enrolled in this course (and its staff) can post here.";
export const SUSPENDED = "You are suspended from posting questions and answers.";
export const QUESTION_NOT_FOUND = "This question could not be found.";
const PREVIEW_ONLY = "Enroll in this course to read the questions on this lesson.";

/**
 * The staff badge of a user in a course: admins everywhere, instructors and assessors in the courses
 * they are assigned to (decision 0053); null for everyone else.
 */
export async function staffBadgeIn(db: Kysely<DB>, user: CurrentUser, courseId: string): Promise<StaffBadge | null> {
  if (user.role === "admin") return "admin";
  if (user.role !== "instructor" && user.role !== "assessor") return null;
  return (await isCourseStaff(db, user, courseId, user.role)) ? user.role : null;
}

/** The courses whose questions a staff member answers: every course for an admin (null), else their assignments. */
export async function coursesAnsweredBy(db: Kysely<DB>, user: CurrentUser): Promise<string[] | null> {
  if (user.role === "admin") return null;
  if (user.role !== "instructor" && user.role !== "assessor") return [];
  return coursesStaffedBy(db, user.id, user.role);
}

export async function readerOf(db: Kysely<DB>, user: CurrentUser | null, courseId: string): Promise<Reader> {
  if (!user) return { user, badge: null, enrolled: false, suspension: null };
  const [enrolled, suspension, badge] = await Promise.all([
    isEnrolled(db, user.id, courseId),
    db.selectFrom("postingSuspension").select("reason").where("userId", "=", user.id).executeTakeFirst(),
    staffBadgeIn(db, user, courseId),
  ]);
  return { user, badge, enrolled, suspension: suspension?.reason ?? null };
}

/** The free preview lesson (the first lesson of the first module), whose questions anyone may read. */
export const previewLessonId = (course: CatalogueCourse) => course.modules[0]?.lessons[0]?.id ?? null;

export const canRead = (reader: Reader, course: CatalogueCourse, lessonId: string) =>
  reader.badge !== null || reader.enrolled || previewLessonId(course) === lessonId;

export function requireRead(reader: Reader, course: CatalogueCourse, lessonId: string) {
  if (!course.lessonsById.has(lessonId)) throw notFound("This lesson could not be found.");
  if (!canRead(reader, course, lessonId)) throw reader.user ? forbidden(PREVIEW_ONLY) : unauthorized(PREVIEW_ONLY);
}

/** Why this reader may not post in the course, or null when they may. */
export function postingRefusal(reader: Reader): string | null {
  if (!reader.user) return "Sign in to ask a question.";
  if (reader.badge === null && !reader.enrolled) return NOT_ENROLLED_TO_POST;
  if (reader.suspension !== null) return SUSPENDED;
  return null;
}

export function requirePoster(reader: Reader): CurrentUser {
  const refusal = postingRefusal(reader);
  if (!reader.user) throw unauthorized();
  if (refusal) throw forbidden(refusal);
  return reader.user;
}

/** How a post's author is shown: first name and last initial, never the e-mail. */
export function displayName(firstName: string | null, lastName: string | null): string {
  const first = firstName?.trim();
  if (!first) return "Former learner";
  const initial = Array.from(lastName?.trim() ?? "")[0];
  return initial ? `${first} ${initial.toUpperCase()}.` : first;
}
