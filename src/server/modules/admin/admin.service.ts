import type { Kysely } from "kysely";
import { REFUND_WINDOW_DAYS } from "#shared/constants.ts";
import type { AdminCoupon, AdminLearner, AdminOrder } from "#shared/schemas/admin.ts";
import type { CurrentUser } from "#shared/schemas/auth.ts";
import type { DB } from "../../db/schema.ts";
import { badRequest, conflict, notFound } from "../../errors.ts";
import { recordAudit } from "../audit/audit.ts";
import { certificateStatus, preferCurrentPerCourse, revokeCertificate } from "../certificates/certificates.service.ts";
import { createCoupon, deactivateCouponRow, type NewCoupon } from "../coupons/coupons.service.ts";
import type { Catalogue } from "../courses/course-catalogue.ts";
import { computeCourseState, loadAllLearnerRecords } from "../progress/learner-state.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
// Search text is matched literally: LIKE wildcards typed by the admin are dropped.
const like = (q: string) => `%${q.toLowerCase().replace(/[\\%_]/g, "")}%`;

export async function listCoupons(db: Kysely<DB>): Promise<AdminCoupon[]> {
  return db.selectFrom("coupon").selectAll().orderBy("createdAt", "desc").execute();
}

export async function adminCreateCoupon(
  db: Kysely<DB>,
  catalogue: Catalogue,
  actor: CurrentUser,
  input: NewCoupon,
): Promise<AdminCoupon> {
  if (input.courseId && !catalogue.byId.has(input.courseId))
    throw badRequest(`There is no course with the id '${input.courseId}'.`);
  const coupon = await createCoupon(db, input);
  await recordAudit(db, actor, "coupon.create", coupon.code, { ...input });
  return coupon;
}

export async function deactivateCoupon(db: Kysely<DB>, actor: CurrentUser, id: string): Promise<AdminCoupon> {
  const coupon = await db.selectFrom("coupon").selectAll().where("id", "=", id).executeTakeFirst();
  if (!coupon) throw notFound("Coupon not found.");
  await db.transaction().execute(async (trx) => {
    await deactivateCouponRow(trx, id);
    await recordAudit(trx, actor, "coupon.deactivate", coupon.code);
  });
  return { ...coupon, active: false };
}

export async function listOrders(
  db: Kysely<DB>,
  catalogue: Catalogue,
  page: { q?: string; page: number; pageSize: number },
): Promise<{ items: AdminOrder[]; total: number }> {
  const base = db
    .selectFrom("order")
    .innerJoin("user", "user.id", "order.userId")
    .where("order.status", "!=", "created")
    .leftJoin("enrollment", (j) =>
      j.onRef("enrollment.userId", "=", "order.userId").onRef("enrollment.courseId", "=", "order.courseId"),
    )
    .$if(!!page.q, (qb) =>
      qb.where((eb) =>
        eb.or([
          eb(eb.fn("lower", ["user.email"]), "like", like(page.q!)),
          eb(eb.fn("lower", ["order.courseId"]), "like", like(page.q!)),
          eb(eb.fn("lower", ["order.couponCode"]), "like", like(page.q!)),
          eb(eb.fn("lower", ["order.providerPaymentId"]), "like", like(page.q!)),
        ]),
      ),
    );
  const { total } = await base.select((eb) => eb.fn.countAll().as("total")).executeTakeFirstOrThrow();
  const rows = await base
    .select([
      "order.id",
      "user.email",
      "user.name",
      "order.courseId",
      "order.amount",
      "order.originalAmount",
      "order.couponCode",
      "order.provider",
      "order.providerPaymentId",
      "order.status",
      "order.createdAt",
      "order.refundedAt",
      "enrollment.createdAt as enrolledAt",
    ])
    .orderBy("order.createdAt", "desc")
    .orderBy("order.id")
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize)
    .execute();
  const now = Date.now();
  return {
    total: Number(total),
    items: rows.map((r) => ({
      id: r.id,
      userEmail: r.email,
      userName: r.name,
      courseId: r.courseId,
      courseTitle: catalogue.byId.get(r.courseId)?.card.title ?? r.courseId,
      amount: r.amount,
      originalAmount: r.originalAmount,
      couponCode: r.couponCode,
      provider: r.provider,
      providerPaymentId: r.providerPaymentId,
      status: r.status,
      createdAt: r.createdAt,
      refundedAt: r.refundedAt,
      // A free claim took no payment: there is nothing to give back.
      refundable:
        r.status === "paid" &&
        r.amount > 0 &&
        now - new Date(r.enrolledAt ?? r.createdAt).getTime() <= REFUND_WINDOW_DAYS * DAY_MS,
    })),
  };
}

export async function listLearners(
  db: Kysely<DB>,
  page: { q?: string; page: number; pageSize: number },
): Promise<{ items: AdminLearner[]; total: number }> {
  const base = db
    .selectFrom("user")
    .$if(!!page.q, (qb) =>
      qb.where((eb) =>
        eb.or([
          eb(eb.fn("lower", ["email"]), "like", like(page.q!)),
          eb(eb.fn("lower", ["name"]), "like", like(page.q!)),
        ]),
      ),
    );
  const { total } = await base.select((eb) => eb.fn.countAll().as("total")).executeTakeFirstOrThrow();
  const users = await base
    .select(["id", "email", "firstName", "lastName", "role", "createdAt"])
    .orderBy("createdAt", "desc")
    .orderBy("id")
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize)
    .execute();
  return {
    total: Number(total),
    items: users.map((u) => ({ ...u, timeMultiplier: 1, attempts: [], courses: [] })),
  };
}

/** Fills in each listed learner's courses with the same progress figure the learner sees. */
export async function withCourses(
  db: Kysely<DB>,
  catalogue: Catalogue,
  learners: AdminLearner[],
): Promise<AdminLearner[]> {
  if (learners.length === 0) return learners;
  const ids = learners.map((l) => l.id);
  const certificates = await db
    .selectFrom("certificate")
    .select(["userId", "courseId", "certificateId", "revokedAt", "expiresAt", "issuedAt"])
    .where("userId", "in", ids)
    .execute();
  const shown = learners.flatMap((l) => preferCurrentPerCourse(certificates.filter((c) => c.userId === l.id)));
  return Promise.all(
    learners.map(async (l) => {
      const records = await loadAllLearnerRecords(db, l.id);
      const courses = [...records.entries()]
        .filter(([, r]) => r.enrolled)
        .map(([courseId, r]) => {
          const course = catalogue.byId.get(courseId);
          const cert = shown.find((c) => c.userId === l.id && c.courseId === courseId);
          return {
            courseId,
            percent: course ? computeCourseState(course, r).percent : 0,
            certificateId: cert?.certificateId ?? null,
            certificateStatus: cert ? certificateStatus(cert) : null,
          };
        });
      return { ...l, courses };
    }),
  );
}

export async function adminRevokeCertificate(
  db: Kysely<DB>,
  actor: CurrentUser,
  certificateId: string,
  reason: string,
) {
  const cert = await db
    .selectFrom("certificate")
    .select(["certificateId", "revokedAt"])
    .where("certificateId", "=", certificateId)
    .executeTakeFirst();
  if (!cert) throw notFound("Certificate not found.");
  const revoked = await db.transaction().execute(async (trx) => {
    const ids = await revokeCertificate(trx, { certificateId }, reason);
    if (ids.length) await recordAudit(trx, actor, "certificate.revoke", certificateId, { reason });
    return ids;
  });
  if (revoked.length === 0) throw conflict("This certificate is already revoked.");
  return { certificateId, status: "revoked" as const };
}

export async function listAudit(db: Kysely<DB>, page: { q?: string; page: number; pageSize: number }) {
  const base = db
    .selectFrom("auditLog")
    .$if(!!page.q, (qb) =>
      qb.where((eb) =>
        eb.or([
          eb(eb.fn("lower", ["actorEmail"]), "like", like(page.q!)),
          eb(eb.fn("lower", ["action"]), "like", like(page.q!)),
          eb(eb.fn("lower", ["target"]), "like", like(page.q!)),
        ]),
      ),
    );
  const { total } = await base.select((eb) => eb.fn.countAll().as("total")).executeTakeFirstOrThrow();
  const rows = await base
    .selectAll()
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize)
    .execute();
  return {
    total: Number(total),
    items: rows.map((r) => ({
      id: r.id,
      actorEmail: r.actorEmail,
      action: r.action,
      target: r.target,
      details: JSON.parse(r.details) as Record<string, unknown>,
      createdAt: r.createdAt,
    })),
  };
}
