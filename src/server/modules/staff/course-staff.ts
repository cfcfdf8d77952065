import type { FastifyRequest } from "fastify";
import type { Kysely, Transaction } from "kysely";
import type { CurrentUser, StaffRole } from "#shared/schemas/auth.ts";
import type { DB } from "../../db/schema.ts";
import { forbidden } from "../../errors.ts";
import { requireUser } from "../../plugins/auth.ts";

/**
 * Course staff (docs/decisions/0053): an instructor or an assessor works on the courses an admin
 * assigned them to (`courseStaff`, owned here); an admin counts as staff of every course. Writes come
 * from the admin module, in its audited transaction.
 */

type Db = Kysely<DB> | Transaction<DB>;
/** A signed-in user as the session gives them (admins from ADMIN_EMAILS included), or a bare user id. */
type StaffCandidate = Pick<CurrentUser, "id" | "role"> | string;

/** The ids of the courses a user is assigned to in a staff role (assignments only: admins have none of their own). */
export async function coursesStaffedBy(db: Db, userId: string, role: StaffRole): Promise<string[]> {
  const rows = await db
    .selectFrom("courseStaff")
    .select("courseId")
    .where("userId", "=", userId)
    .where("role", "=", role)
    .orderBy("courseId")
    .execute();
  return rows.map((r) => r.courseId);
}

/**
 * Whether a user is staff of a course in a role: an admin always is; otherwise they must hold the role
 * and be assigned to the course. A bare id reads the account's stored role (an admin only by
 * ADMIN_EMAILS is known from the session: pass the signed-in user where there is one).
 */
export async function isCourseStaff(db: Db, user: StaffCandidate, courseId: string, role: StaffRole): Promise<boolean> {
  const who =
    typeof user === "string"
      ? await db.selectFrom("user").select(["id", "role"]).where("id", "=", user).executeTakeFirst()
      : user;
  if (!who) return false;
  if (who.role === "admin") return true;
  if (who.role !== role) return false;
  const row = await db
    .selectFrom("courseStaff")
    .select("userId")
    .where("userId", "=", who.id)
    .where("courseId", "=", courseId)
    .where("role", "=", role)
    .executeTakeFirst();
  return row !== undefined;
}

const ROLE_NAMES: Record<StaffRole, string> = { instructor: "instructors", assessor: "assessors" };

/** The route guard: the signed-in user, when they are staff of the course in the role (admins are); 401 or 403 otherwise. */
export async function requireCourseStaff(
  request: FastifyRequest,
  db: Db,
  courseId: string,
  role: StaffRole,
): Promise<CurrentUser> {
  const user = await requireUser(request);
  if (!(await isCourseStaff(db, user, courseId, role)))
    throw forbidden(`Only ${ROLE_NAMES[role]} assigned to this course may do this.`);
  return user;
}

/** Adds an assignment; false when it was already there (assigning twice changes nothing). */
export async function insertCourseStaff(
  trx: Db,
  row: { userId: string; courseId: string; role: StaffRole; assignedBy: string },
): Promise<boolean> {
  const result = await trx
    .insertInto("courseStaff")
    .values({ ...row, createdAt: new Date().toISOString() })
    .onConflict((oc) => oc.columns(["userId", "courseId", "role"]).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}

/** Removes one assignment, or every assignment of the role when no course is named (the role was taken away). */
export async function deleteCourseStaff(
  trx: Db,
  where: { userId: string; role: StaffRole; courseId?: string },
): Promise<number> {
  const result = await trx
    .deleteFrom("courseStaff")
    .where("userId", "=", where.userId)
    .where("role", "=", where.role)
    .$if(where.courseId !== undefined, (qb) => qb.where("courseId", "=", where.courseId ?? ""))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Assignments with the person's name and e-mail, newest first; filtered by course or user when given. */
export async function listCourseStaff(db: Db, filter: { courseId?: string | undefined; userId?: string | undefined }) {
  return (
    db
      .selectFrom("courseStaff")
      .innerJoin("user", "user.id", "courseStaff.userId")
      // A course still only a draft has no `course` row: its title is its draft's.
      .leftJoin("course", "course.id", "courseStaff.courseId")
      .leftJoin("assessorProfile", "assessorProfile.userId", "courseStaff.userId")
      .select([
        "assessorProfile.credential",
        "assessorProfile.awardingBody",
        "assessorProfile.credentialNumber",
        "assessorProfile.coachingTraining",
        "courseStaff.userId",
        "user.email",
        "user.firstName",
        "user.lastName",
        "courseStaff.courseId",
        "course.title as courseTitle",
        "courseStaff.role",
        "courseStaff.assignedBy",
        "courseStaff.createdAt",
      ])
      .$if(filter.courseId !== undefined, (qb) => qb.where("courseStaff.courseId", "=", filter.courseId ?? ""))
      .$if(filter.userId !== undefined, (qb) => qb.where("courseStaff.userId", "=", filter.userId ?? ""))
      .orderBy("courseStaff.createdAt", "desc")
      .orderBy("courseStaff.courseId")
      .execute()
      .then(async (rows) => {
        const drafted = await draftTitles(db, [
          ...new Set(rows.filter((r) => r.courseTitle === null).map((r) => r.courseId)),
        ]);
        return rows.map(({ credential, awardingBody, credentialNumber, coachingTraining, courseTitle, ...row }) => ({
          ...row,
          courseTitle: courseTitle ?? drafted.get(row.courseId) ?? row.courseId,
          qualifications:
            credential && awardingBody && credentialNumber
              ? { credential, awardingBody, credentialNumber, coachingTraining }
              : null,
        }));
      })
  );
}

/** The titles of courses that exist only as drafts (never published), by id; none for an id without a draft. */
export async function draftTitles(db: Db, courseIds: string[]): Promise<Map<string, string>> {
  if (courseIds.length === 0) return new Map();
  const rows = await db
    .selectFrom("courseDraft")
    .select(["courseId", "document"])
    .where("courseId", "in", courseIds)
    .execute();
  return new Map(
    rows.map((r) => {
      const title = (JSON.parse(r.document) as { course?: { title?: unknown } }).course?.title;
      return [r.courseId, typeof title === "string" ? title : r.courseId];
    }),
  );
}
