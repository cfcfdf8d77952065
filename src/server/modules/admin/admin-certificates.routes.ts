import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { certificateParamsSchema } from "#shared/schemas/admin.ts";
import {
  expiringCertificateListSchema,
  expiringQuerySchema,
  extendCertificateInputSchema,
  extendCertificateResponseSchema,
} from "#shared/schemas/certificate-lifecycle.ts";
import { textFileSchema } from "#shared/schemas/common.ts";
import { requireAdmin } from "../../plugins/auth.ts";
import type { CourseCatalogue } from "../courses/course-catalogue.ts";
import {
  adminExtendCertificate,
  expiringCertificatesCsv,
  listExpiringCertificates,
} from "./admin-certificates.service.ts";

/** Certificates near or past expiry, their reminders, CSV export, and extension by hand. Admins only. */
export function adminCertificatesRoutes(catalogue: CourseCatalogue): FastifyPluginAsyncZod {
  return async (app) => {
    const db = app.deps.database.db;
    app.addHook("onRequest", async (request) => {
      await requireAdmin(request);
    });

    app.get(
      "/api/admin/certificates/expiring",
      { schema: { querystring: expiringQuerySchema, response: { 200: expiringCertificateListSchema } } },
      async (request) => listExpiringCertificates(db, await catalogue.get(), request.query.window),
    );

    app.get(
      "/api/admin/certificates/expiring.csv",
      {
        schema: {
          querystring: expiringQuerySchema,
          response: { 200: { content: { "text/csv": { schema: textFileSchema } } } },
        },
      },
      async (request, reply) => {
        const rows = await listExpiringCertificates(db, await catalogue.get(), request.query.window);
        return reply
          .type("text/csv; charset=utf-8")
          .header(
            "content-disposition",
            `attachment; filename="certificates-${request.query.window === "expired" ? "expired" : `expiring-${request.query.window}-days`}.csv"`,
          )
          .header("cache-control", "private, no-store")
          .send(expiringCertificatesCsv(rows));
      },
    );

    app.post(
      "/api/admin/certificates/:certificateId/extend",
      {
        config: { stepUp: true },
        schema: {
          params: certificateParamsSchema,
          body: extendCertificateInputSchema,
          response: { 200: extendCertificateResponseSchema },
        },
      },
      async (request) =>
        adminExtendCertificate(db, await requireAdmin(request), request.params.certificateId, request.body),
    );
  };
}
