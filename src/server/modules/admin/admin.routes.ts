import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  accommodationInputSchema,
  accommodationSchema,
  adminCouponSchema,
  adminEnrollInputSchema,
  adminEnrollResponseSchema,
  bulkEnrollInputSchema,
  bulkEnrollResponseSchema,
  certificateParamsSchema,
  createCouponInputSchema,
  grantAttemptInputSchema,
  idParamsSchema,
  pagedAuditSchema,
  pagedLearnersSchema,
  pagedOrdersSchema,
  pageQuerySchema,
  refundedOrderSchema,
  revokeCertificateInputSchema,
  revokedCertificateSchema,
  secondFactorsResetSchema,
} from "#shared/schemas/admin.ts";
import { emptyBodySchema, textFileSchema } from "#shared/schemas/common.ts";
import { itemStatisticsQuerySchema, itemStatisticsSchema } from "#shared/schemas/item-statistics.ts";
import { roleChangeSchema, roleInputSchema } from "#shared/schemas/practical.ts";
import {
  courseStaffInputSchema,
  courseStaffListSchema,
  courseStaffParamsSchema,
  courseStaffQuerySchema,
  courseStaffRemovedSchema,
  courseStaffSchema,
} from "#shared/schemas/staff.ts";
import { requireAdmin } from "../../plugins/auth.ts";
import { refundOrder } from "../checkout/refunds.ts";
import type { CourseCatalogue } from "../courses/course-catalogue.ts";
import { courseItemStatistics, itemStatisticsCsv } from "../courses/item-statistics.ts";
import { listCourseStaff } from "../staff/course-staff.ts";
import {
  adminCreateCoupon,
  adminRevokeCertificate,
  deactivateCoupon,
  listAudit,
  listCoupons,
  listLearners,
  listOrders,
  withCourses,
} from "./admin.service.ts";
import { grantExtraAttempt, setTimeMultiplier, withAttempts } from "./admin-assessment.service.ts";
import { bulkEnrol, enrolByEmail } from "./admin-enrollments.service.ts";
import { assignCourseStaff, resetMemberFactors, setStaffRole, unassignCourseStaff } from "./admin-roles.service.ts";

/** Everything here is for admins: the role is checked on the server before any handler runs. */
export function adminRoutes(catalogue: CourseCatalogue): FastifyPluginAsyncZod {
  return async (app) => {
    const { database, payments } = app.deps;
    const db = database.db;
    app.addHook("onRequest", async (request) => {
      await requireAdmin(request);
    });
    const actor = async (request: Parameters<typeof requireAdmin>[0]) => requireAdmin(request);

    app.post(
      "/api/admin-enroll-user",
      { schema: { body: adminEnrollInputSchema, response: { 200: adminEnrollResponseSchema } } },
      async (request) => {
        const r = await enrolByEmail(
          db,
          await catalogue.get(),
          await actor(request),
          request.body.userEmail,
          request.body.courseId,
        );
        return { success: r.success, message: r.message, outcome: r.outcome };
      },
    );

    app.post(
      "/api/admin/enrollments/bulk",
      { schema: { body: bulkEnrollInputSchema, response: { 200: bulkEnrollResponseSchema } } },
      async (request) => bulkEnrol(db, await catalogue.get(), await actor(request), request.body.csv),
    );

    app.get("/api/admin/coupons", { schema: { response: { 200: z.array(adminCouponSchema) } } }, async () =>
      listCoupons(db),
    );
    app.post(
      "/api/admin/coupons",
      { config: { stepUp: true }, schema: { body: createCouponInputSchema, response: { 200: adminCouponSchema } } },
      async (request) => adminCreateCoupon(db, await catalogue.get(), await actor(request), request.body),
    );
    app.post(
      "/api/admin/coupons/:id/deactivate",
      { schema: { params: idParamsSchema, body: emptyBodySchema, response: { 200: adminCouponSchema } } },
      async (request) => deactivateCoupon(db, await actor(request), request.params.id),
    );

    app.get(
      "/api/admin/orders",
      { schema: { querystring: pageQuerySchema, response: { 200: pagedOrdersSchema } } },
      async (request) => {
        const { items, total } = await listOrders(db, await catalogue.get(), request.query);
        return { items, total, page: request.query.page, pageSize: request.query.pageSize };
      },
    );
    app.post(
      "/api/admin/orders/:id/refund",
      {
        config: { stepUp: true },
        schema: { params: idParamsSchema, body: emptyBodySchema, response: { 200: refundedOrderSchema } },
      },
      async (request) => refundOrder({ db, provider: payments }, await actor(request), request.params.id),
    );

    app.get(
      "/api/admin/learners",
      { schema: { querystring: pageQuerySchema, response: { 200: pagedLearnersSchema } } },
      async (request) => {
        const { items, total } = await listLearners(db, request.query);
        const current = await catalogue.get();
        return {
          items: await withAttempts(db, app.deps.config, current, await withCourses(db, current, items)),
          total,
          page: request.query.page,
          pageSize: request.query.pageSize,
        };
      },
    );
    app.post(
      "/api/admin/learners/:id/attempt-grants",
      {
        schema: {
          params: idParamsSchema,
          body: grantAttemptInputSchema,
          response: { 200: z.object({ granted: z.literal(true) }) },
        },
      },
      async (request) =>
        grantExtraAttempt(db, await catalogue.get(), await actor(request), request.params.id, request.body),
    );
    app.get(
      "/api/admin/item-statistics",
      { schema: { querystring: itemStatisticsQuerySchema, response: { 200: itemStatisticsSchema } } },
      async (request) => courseItemStatistics(db, catalogue, request.query),
    );
    app.get(
      "/api/admin/item-statistics.csv",
      {
        schema: {
          querystring: itemStatisticsQuerySchema,
          response: { 200: { content: { "text/csv": { schema: textFileSchema } } } },
        },
      },
      async (request, reply) => {
        const stats = await courseItemStatistics(db, catalogue, request.query);
        return reply
          .type("text/csv; charset=utf-8")
          .header("content-disposition", `attachment; filename="item-statistics-${request.query.courseId}.csv"`)
          .header("cache-control", "private, no-store")
          .send(itemStatisticsCsv(stats));
      },
    );
    app.put(
      "/api/admin/learners/:id/role",
      {
        config: { stepUp: true },
        schema: { params: idParamsSchema, body: roleInputSchema, response: { 200: roleChangeSchema } },
      },
      async (request) => setStaffRole(db, await actor(request), request.params.id, request.body.role),
    );
    // Recovery of a member who lost every factor: another admin, audited, the owner told (decision 0054).
    app.post(
      "/api/admin/learners/:id/second-factors/reset",
      {
        config: { stepUp: true },
        schema: { params: idParamsSchema, body: emptyBodySchema, response: { 200: secondFactorsResetSchema } },
      },
      async (request) =>
        resetMemberFactors(db, await actor(request), request.params.id, `${app.deps.config.appUrl}/profile#security`),
    );
    app.get(
      "/api/admin/course-staff",
      { schema: { querystring: courseStaffQuerySchema, response: { 200: courseStaffListSchema } } },
      async (request) => ({ items: await listCourseStaff(db, request.query) }),
    );
    app.post(
      "/api/admin/course-staff",
      { config: { stepUp: true }, schema: { body: courseStaffInputSchema, response: { 200: courseStaffSchema } } },
      async (request) => assignCourseStaff(db, catalogue, await actor(request), request.body),
    );
    app.delete(
      "/api/admin/course-staff/:userId/:courseId/:role",
      {
        config: { stepUp: true },
        schema: { params: courseStaffParamsSchema, body: emptyBodySchema, response: { 200: courseStaffRemovedSchema } },
      },
      async (request) => unassignCourseStaff(db, await actor(request), request.params),
    );
    app.put(
      "/api/admin/learners/:id/accommodation",
      { schema: { params: idParamsSchema, body: accommodationInputSchema, response: { 200: accommodationSchema } } },
      async (request) => setTimeMultiplier(db, await actor(request), request.params.id, request.body.timeMultiplier),
    );
    app.post(
      "/api/admin/certificates/:certificateId/revoke",
      {
        config: { stepUp: true },
        schema: {
          params: certificateParamsSchema,
          body: revokeCertificateInputSchema,
          response: { 200: revokedCertificateSchema },
        },
      },
      async (request) =>
        adminRevokeCertificate(db, await actor(request), request.params.certificateId, request.body.reason),
    );

    app.get(
      "/api/admin/audit",
      { schema: { querystring: pageQuerySchema, response: { 200: pagedAuditSchema } } },
      async (request) => {
        const { items, total } = await listAudit(db, request.query);
        return { items, total, page: request.query.page, pageSize: request.query.pageSize };
      },
    );
  };
}
