import type { FastifyPluginAsyncZod, ZodTypeProvider } from "fastify-type-provider-zod";
import {
  recertificationParamsSchema,
  recertificationRulesSchema,
  unsubscribeBodySchema,
  unsubscribeQuerySchema,
  unsubscribeResponseSchema,
} from "#shared/schemas/certificate-lifecycle.ts";
import { emptyBodySchema } from "#shared/schemas/common.ts";
import { attemptRefusedSchema, quizResultSchema, quizSchema, quizSubmissionSchema } from "#shared/schemas/learning.ts";
import { badRequest } from "../../errors.ts";
import { requireUser } from "../../plugins/auth.ts";
import { requireCourse } from "../courses/course-access.ts";
import type { CourseCatalogue } from "../courses/course-catalogue.ts";
import { sweepCertificateReminders } from "./certificate-reminders.ts";
import { unsubscribeFromReminders } from "./reminder-unsubscribe.ts";
import { readRecertification, recertificationRules, startRecertification, submitRecertification } from "./renewals.ts";

/**
 * After issue (docs/decisions/0028): the recertification exam, the one-click unsubscribe from
 * reminders, and the reminder sweep (a job: once per turn across every instance).
 */
export function certificateLifecycleRoutes(catalogue: CourseCatalogue): FastifyPluginAsyncZod {
  return async (app) => {
    const { database, config, jobs } = app.deps;
    const deps = { db: database.db, config, log: app.log, counters: app.deps.counters };

    if (config.certificateReminderSweepSeconds > 0) {
      jobs.every("certificate-reminders", config.certificateReminderSweepSeconds * 1000, async () => {
        const queued = await sweepCertificateReminders({ ...deps, catalogue: () => catalogue.get() });
        if (queued) app.log.info({ queued }, "certificate reminders queued");
      });
    }

    app.post(
      "/api/recertification/:courseId/attempt",
      {
        schema: {
          params: recertificationParamsSchema,
          body: emptyBodySchema,
          response: { 200: quizSchema, 429: attemptRefusedSchema },
        },
      },
      async (request) => {
        const user = await requireUser(request);
        return startRecertification(deps, user, requireCourse(await catalogue.course(request.params.courseId)));
      },
    );

    app.get(
      "/api/recertification/:courseId/rules",
      { schema: { params: recertificationParamsSchema, response: { 200: recertificationRulesSchema } } },
      async (request) => {
        const user = await requireUser(request);
        return recertificationRules(deps, user, requireCourse(await catalogue.course(request.params.courseId)));
      },
    );

    app.get(
      "/api/recertification/:courseId",
      { schema: { params: recertificationParamsSchema, response: { 200: quizSchema } } },
      async (request) => {
        const user = await requireUser(request);
        return readRecertification(deps, user, requireCourse(await catalogue.course(request.params.courseId)));
      },
    );

    app.post(
      "/api/recertification/:courseId",
      {
        schema: {
          params: recertificationParamsSchema,
          body: quizSubmissionSchema,
          response: { 200: quizResultSchema },
        },
      },
      async (request) => {
        const user = await requireUser(request);
        const course = requireCourse(await catalogue.course(request.params.courseId));
        return submitRecertification(deps, user, course, request.body);
      },
    );

    // Mail clients POST the List-Unsubscribe address with a form body (RFC 8058); the token is in
    // the address, so the body is read and ignored. Only this route takes a form body.
    await app.register(async (scope) => {
      scope.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_req, _body, done) =>
        done(null, {}),
      );
      scope.withTypeProvider<ZodTypeProvider>().post(
        "/api/email/unsubscribe",
        {
          schema: {
            querystring: unsubscribeQuerySchema,
            body: unsubscribeBodySchema,
            response: { 200: unsubscribeResponseSchema },
          },
          config: { rateLimit: { max: 30, timeWindow: "1 minute" } },
        },
        async (request) => {
          const token = request.body?.token ?? request.query.token;
          if (!token) throw badRequest("This unsubscribe link is not valid.");
          await unsubscribeFromReminders(database.db, config.authSecret, token);
          return {
            unsubscribed: true as const,
            message: "You will get no more certificate reminders. Receipts and security messages still reach you.",
          };
        },
      );
    });
  };
}
