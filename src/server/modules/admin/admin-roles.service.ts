import type { Kysely } from "kysely";
import type { CurrentUser, StaffRole } from "#shared/schemas/auth.ts";
import type { GrantableRole } from "#shared/schemas/practical.ts";
import type { CourseStaff, CourseStaffInput } from "#shared/schemas/staff.ts";
import { resetSecondFactors } from "../../auth/second-factor-reset.ts";
import type { DB } from "../../db/schema.ts";
import { conflict, notFound } from "../../errors.ts";
import { recordAudit } from "../audit/audit.ts";
import type { CourseCatalogue } from "../courses/course-catalogue.ts";
import { releaseClaimsOf } from "../practical/practical.repository.ts";
import { findAssessorProfile, qualificationProblem } from "../staff/assessor-profile.ts";
import { deleteCourseStaff, draftTitles, insertCourseStaff, listCourseStaff } from "../staff/course-staff.ts";

const GRANT_ACTIONS: Record<StaffRole, { grant: string; revoke: string }> = {
  assessor: { grant: "role.assessor.grant", revoke: "role.assessor.revoke" },
  instructor: { grant: "role.instructor.grant", revoke: "role.instructor.revoke" },
};

/**
 * Makes a learner an assessor or an instructor, or back. Admins keep their role here: it changes only
 * from the command line or ADMIN_EMAILS. A staff role taken away takes its course assignments with it,
 * and an assessor's claimed submissions go back to the queue, so no learner waits on someone who can
 * no longer review. Audited.
 */
export async function setStaffRole(
  db: Kysely<DB>,
  actor: CurrentUser,
  userId: string,
  role: GrantableRole,
): Promise<{ userId: string; role: GrantableRole }> {
  if (userId === actor.id) throw conflict("You cannot change your own role.");
  const user = await db.selectFrom("user").select(["email", "role"]).where("id", "=", userId).executeTakeFirst();
  if (!user) throw notFound("Learner not found.");
  if (user.role === "admin") throw conflict("This account is an admin; change an admin's role from the command line.");
  if (user.role === role) return { userId, role };
  await db.transaction().execute(async (trx) => {
    const changed = await trx
      .updateTable("user")
      .set({ role, updatedAt: new Date().toISOString() })
      .where("id", "=", userId)
      .where("role", "!=", "admin")
      .executeTakeFirst();
    if (Number(changed.numUpdatedRows) === 0) throw conflict("This account is an admin now; nothing was changed.");
    if (user.role === "assessor" || user.role === "instructor") {
      const removed = await deleteCourseStaff(trx, { userId, role: user.role });
      const released = user.role === "assessor" ? await releaseClaimsOf(trx, userId) : 0;
      await recordAudit(trx, actor, GRANT_ACTIONS[user.role].revoke, user.email, {
        courseAssignmentsRemoved: removed,
        ...(released ? { submissionsReleased: released } : {}),
      });
    }
    if (role !== "learner") await recordAudit(trx, actor, GRANT_ACTIONS[role].grant, user.email);
  });
  return { userId, role };
}

/** Assigns an assessor or instructor to a course (they must hold that role). Assigning twice changes nothing. Audited. */
export async function assignCourseStaff(
  db: Kysely<DB>,
  catalogue: CourseCatalogue,
  actor: CurrentUser,
  input: CourseStaffInput,
): Promise<CourseStaff> {
  const course = await catalogue.course(input.courseId);
  // An instructor may write a course before its first version (docs/decisions/0060); an assessor
  // assesses a published course, whose practical says what qualifications they need.
  const drafted =
    !course && input.role === "instructor" && (await draftTitles(db, [input.courseId])).has(input.courseId);
  if (!course && !drafted) throw notFound("Course not found.");
  await db.transaction().execute(async (trx) => {
    const user = await trx
      .selectFrom("user")
      .select(["email", "role"])
      .where("id", "=", input.userId)
      .executeTakeFirst();
    if (!user) throw notFound("Learner not found.");
    if (user.role === "admin") throw conflict("Admins are staff of every course already.");
    if (user.role !== input.role)
      throw conflict(`This account is not an ${input.role}; grant the ${input.role} role first.`);
    // Who may assess: the qualifications the course's practical asks for are on record (docs/decisions/0053).
    if (input.role === "assessor") {
      const problem = qualificationProblem(await findAssessorProfile(trx, input.userId), course?.practical ?? null);
      if (problem) throw conflict(problem);
    }
    const added = await insertCourseStaff(trx, { ...input, assignedBy: actor.email });
    if (added)
      await recordAudit(trx, actor, `course-staff.${input.role}.assign`, user.email, { courseId: input.courseId });
  });
  const assigned = (await listCourseStaff(db, input)).find((r) => r.role === input.role);
  if (!assigned) throw conflict("The role was taken away at the same time; nothing was assigned.");
  return assigned;
}

/** Unassigns an assessor or instructor from a course; `removed` is false when there was no such assignment. Audited. */
export async function unassignCourseStaff(
  db: Kysely<DB>,
  actor: CurrentUser,
  input: CourseStaffInput,
): Promise<{ removed: boolean }> {
  return db.transaction().execute(async (trx) => {
    const removed = (await deleteCourseStaff(trx, input)) > 0;
    if (removed) {
      const user = await trx.selectFrom("user").select("email").where("id", "=", input.userId).executeTakeFirst();
      await recordAudit(trx, actor, `course-staff.${input.role}.unassign`, user?.email ?? input.userId, {
        courseId: input.courseId,
      });
    }
    return { removed };
  });
}

/**
 * Another person's second factors reset by an admin (decision 0054): their two-factor, passkeys and
 * sessions go, they are told by e-mail, and the audit log says who did it. Never one's own account:
 * that would be recovery without a second person.
 */
export async function resetMemberFactors(
  db: Kysely<DB>,
  actor: CurrentUser,
  userId: string,
  profileUrl: string,
): Promise<{ userId: string; reset: true }> {
  if (userId === actor.id) throw conflict("Another admin resets your own second factors.");
  await db.transaction().execute(async (trx) => {
    const user = await resetSecondFactors(trx, userId, `an admin (${actor.email})`, profileUrl);
    if (!user) throw notFound("Learner not found.");
    await recordAudit(trx, actor, "second-factors.reset", user.email);
  });
  return { userId, reset: true };
}
