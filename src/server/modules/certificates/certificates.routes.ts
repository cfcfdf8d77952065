import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  certificateIdParamsSchema,
  certificateListSchema,
  certificateSchema,
  issueCertificateInputSchema,
  verificationSchema,
} from "#shared/schemas/certificates.ts";
import { binaryFileSchema, emptyBodySchema } from "#shared/schemas/common.ts";
import { courseParamsSchema } from "#shared/schemas/courses.ts";
import { requireUser } from "../../plugins/auth.ts";
import { requireCourse } from "../courses/course-access.ts";
import type { CourseCatalogue } from "../courses/course-catalogue.ts";
import { servedCourseFor } from "../progress/learner-state.ts";
import { renderCertificatePdf } from "./certificate-pdf.ts";
import {
  assessmentStatementOf,
  type CertificateRow,
  certificateStatus,
  creditsOf,
  earnedOn,
  getOwnCertificate,
  getOwnCertificateById,
  holderNameOf,
  issueCertificate,
  listOwnCertificates,
  reissueWithCurrentName,
  verifyCertificate,
  verifyUrl,
  versionLine,
} from "./certificates.service.ts";

/** Gives a certificate's signed credential (from the credentials module, composed in app.ts). */
export type CredentialSource = (row: CertificateRow) => Promise<Record<string, unknown>>;

export function certificatesRoutes(catalogue: CourseCatalogue, credentialOf?: CredentialSource): FastifyPluginAsyncZod {
  return async (app) => {
    const { database, config } = app.deps;
    const db = database.db;

    app.post(
      "/api/certificate",
      { schema: { body: issueCertificateInputSchema, response: { 200: certificateSchema } } },
      async (request) => {
        const user = await requireUser(request);
        const latest = requireCourse(await catalogue.course(request.body.courseId));
        return issueCertificate(db, config, user, await servedCourseFor(catalogue, db, user.id, latest));
      },
    );

    app.get(
      "/api/certificate/:courseId",
      { schema: { params: courseParamsSchema, response: { 200: certificateSchema } } },
      async (request) => {
        const user = await requireUser(request);
        return getOwnCertificate(db, config, await catalogue.get(), user, request.params.courseId);
      },
    );

    app.get("/api/certificates", { schema: { response: { 200: certificateListSchema } } }, async (request) => {
      const user = await requireUser(request);
      return listOwnCertificates(db, config, await catalogue.get(), user);
    });

    app.get(
      "/api/certificates/:certificateId/pdf",
      // Rendering a PDF costs real CPU: a bounded number per address.
      {
        schema: {
          params: certificateIdParamsSchema,
          response: { 200: { content: { "application/pdf": { schema: binaryFileSchema } } } },
        },
        config: { rateLimit: { max: 20, timeWindow: "1 minute" } },
      },
      async (request, reply) => {
        const user = await requireUser(request);
        const row = await getOwnCertificateById(db, user, request.params.certificateId);
        const earned = await earnedOn(catalogue, row);
        const pdf = await renderCertificatePdf({
          holderName: holderNameOf(row),
          courseTitle: earned?.card.title ?? row.courseId,
          versionLine: versionLine(earned, row.courseVersion),
          certificateId: row.certificateId,
          completedAt: row.completedAt,
          expiresAt: row.expiresAt,
          verifyUrl: verifyUrl(config, row.certificateId),
          status: certificateStatus(row),
          creditStatement: creditsOf(earned).creditStatement,
          assessmentStatement: await assessmentStatementOf(db, row.userId, row.courseId),
          credentialJson: credentialOf ? JSON.stringify(await credentialOf(row), null, 2) : undefined,
        });
        return reply
          .type("application/pdf")
          .header("content-disposition", `attachment; filename="certificate-${row.certificateId}.pdf"`)
          .header("cache-control", "private, no-store")
          .send(Buffer.from(pdf));
      },
    );

    app.post(
      "/api/certificates/:certificateId/reissue",
      { schema: { params: certificateIdParamsSchema, body: emptyBodySchema, response: { 200: certificateSchema } } },
      async (request) => {
        const user = await requireUser(request);
        return reissueWithCurrentName(db, config, await catalogue.get(), user, request.params.certificateId);
      },
    );

    // Public, and rate limited so IDs cannot be scanned.
    app.get(
      "/api/verify/:certificateId",
      {
        schema: { params: certificateIdParamsSchema, response: { 200: verificationSchema } },
        config: { rateLimit: { max: 30, timeWindow: "1 minute" } },
      },
      async (request) => verifyCertificate(db, catalogue, request.params.certificateId),
    );
  };
}
