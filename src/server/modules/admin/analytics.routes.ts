import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  analyticsAssessmentsSchema,
  analyticsCsvQuerySchema,
  analyticsOverviewSchema,
  assessmentsQuerySchema,
  courseFunnelSchema,
  funnelQuerySchema,
  periodQuerySchema,
  questionFiguresSchema,
} from "#shared/schemas/analytics.ts";
import { textFileSchema } from "#shared/schemas/common.ts";
import { notFound } from "../../errors.ts";
import { requireAdmin } from "../../plugins/auth.ts";
import type { CourseCatalogue } from "../courses/course-catalogue.ts";
import { questionFigures } from "../questions/question-figures.ts";
import {
  analyticsCsv,
  analyticsOverview,
  assessmentFigures,
  courseFunnel,
  periodOf,
  publicPeriod,
} from "./analytics.service.ts";
import { rollUpAnalytics } from "./analytics-rollup.ts";

/**
 * The owner's dashboard (docs/decisions/0030): aggregates for a period and the one before it. Admins only.
 * Its daily rollup (decision 0038) is a job: one instance per turn brings it up to date.
 */
export function analyticsRoutes(catalogue: CourseCatalogue): FastifyPluginAsyncZod {
  return async (app) => {
    const db = app.deps.database.db;
    const minutes = app.deps.config.analyticsRollupMinutes;
    if (minutes > 0)
      app.deps.jobs.every("analytics-rollup", minutes * 60_000, async () =>
        rollUpAnalytics(db, new Date(), await catalogue.get()),
      );
    app.addHook("onRequest", async (request) => {
      await requireAdmin(request);
    });
    /** The line a published version belongs to (its learners are the funnel's and stalls'), or 404. */
    const lineOf = async (courseId: string, version: number) => {
      const line = (await catalogue.get()).versions.get(courseId)?.find((v) => v.version === version)?.line;
      if (line === undefined) throw notFound("Course or version not found.");
      return line;
    };
    const versionOf = async (courseId: string, version: number) => {
      const course = await catalogue.version(courseId, version);
      if (!course) throw notFound("Course or version not found.");
      return course;
    };

    app.get(
      "/api/admin/analytics/overview",
      { schema: { querystring: periodQuerySchema, response: { 200: analyticsOverviewSchema } } },
      async (request) => analyticsOverview(db, await catalogue.get(), periodOf(request.query)),
    );
    app.get(
      "/api/admin/analytics/funnel",
      { schema: { querystring: funnelQuerySchema, response: { 200: courseFunnelSchema } } },
      async (request) => {
        const { courseId, version } = request.query;
        if (version === undefined) return courseFunnel(db, await catalogue.course(courseId), periodOf(request.query));
        // Learners on that version's line (decision 0055), through the latest version's modules.
        const line = await lineOf(courseId, version);
        return courseFunnel(db, await catalogue.course(courseId), periodOf(request.query), new Date(), line);
      },
    );
    app.get(
      "/api/admin/analytics/assessments",
      { schema: { querystring: assessmentsQuerySchema, response: { 200: analyticsAssessmentsSchema } } },
      async (request) => {
        const { courseId, version } = request.query;
        const period = periodOf(request.query);
        if (version !== undefined && courseId)
          return assessmentFigures(db, await catalogue.get(), period, await versionOf(courseId, version));
        const figures = await assessmentFigures(db, await catalogue.get(), period);
        return courseId ? { ...figures, items: figures.items.filter((i) => i.courseId === courseId) } : figures;
      },
    );
    app.get(
      "/api/admin/analytics/questions",
      { schema: { querystring: periodQuerySchema, response: { 200: questionFiguresSchema } } },
      async (request) => {
        const period = periodOf(request.query);
        const items = await questionFigures(db, await catalogue.get(), period.current);
        return { period: publicPeriod(period), items: items.sort((a, b) => a.title.localeCompare(b.title)) };
      },
    );
    app.get(
      "/api/admin/analytics/export.csv",
      {
        schema: {
          querystring: analyticsCsvQuerySchema,
          response: { 200: { content: { "text/csv": { schema: textFileSchema } } } },
        },
      },
      async (request, reply) => {
        const { table, from, to, courseId, version } = request.query;
        const course = courseId ? await catalogue.course(courseId) : undefined;
        const only =
          courseId && version !== undefined
            ? table === "assessments"
              ? { version: await versionOf(courseId, version) }
              : { line: await lineOf(courseId, version) }
            : {};
        const body = await analyticsCsv(db, await catalogue.get(), table, periodOf(request.query), course, only);
        const name = [
          "analytics",
          table,
          ...(courseId && course ? [courseId] : []),
          ...(version !== undefined ? [`v${version}`] : []),
          from,
          to,
        ].join("-");
        return reply
          .type("text/csv; charset=utf-8")
          .header("content-disposition", `attachment; filename="${name}.csv"`)
          .header("cache-control", "private, no-store")
          .send(body);
      },
    );
  };
}
