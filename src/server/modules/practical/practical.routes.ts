import { randomUUID } from "node:crypto";
import type { Readable } from "node:stream";
import multipart from "@fastify/multipart";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { binaryFileSchema, emptyBodySchema, firstIssue, messageSchema } from "#shared/schemas/common.ts";
import {
  agreementReportSchema,
  assessorProfileInputSchema,
  assessorProfileSchema,
  calibrationExemplarSchema,
  calibrationOverviewSchema,
  calibrationParamsSchema,
  learnerPracticalSchema,
  PRACTICAL_MAX_FILES,
  practicalCourseParamsSchema,
  practicalFileParamsSchema,
  practicalSubmissionFieldsSchema,
  reviewInputSchema,
  reviewQueueSchema,
  reviewSubmissionSchema,
  submissionParamsSchema,
} from "#shared/schemas/practical.ts";
import { requireLiveAccount } from "../../db/account-lock.ts";
import { AppError, badRequest, errorField, forbidden, notFound } from "../../errors.ts";
import { trigger } from "../../jobs/one-off-jobs.ts";
import { requireAdmin, requireAssessor, requireUser } from "../../plugins/auth.ts";
import { requestedRange } from "../../storage/byte-range.ts";
import { FileMissingError, type FileStorage } from "../../storage/file-storage.ts";
import { removeStoredFiles } from "../../storage/remove-stored-files.ts";
import { recordAudit } from "../audit/audit.ts";
import { requireCourse } from "../courses/course-access.ts";
import type { CourseCatalogue } from "../courses/course-catalogue.ts";
import { servedCourseFor } from "../progress/learner-state.ts";
import { findAssessorProfile, upsertAssessorProfile } from "../staff/assessor-profile.ts";
import { agreementReport } from "./agreement.ts";
import { calibrationOverview, getExemplar, scoreExemplar } from "./calibration.service.ts";
import { practicalFileInspector } from "./file-type.ts";
import { findFile, findSubmission } from "./practical.repository.ts";
import {
  checkMaySubmit,
  displayName,
  fileTypeRefusal,
  getLearnerPractical,
  recordSubmission,
  type StoredUpload,
} from "./practical.service.ts";
import {
  anonymousFileName,
  claim,
  getReviewSubmission,
  release,
  requireLiveAssessor,
  reviewQueue,
  submitReview,
} from "./review.service.ts";

const MB = 1024 * 1024;

/** Part of a stored file, streamed from storage (a range a player asked for). */
const byteStreamSchema = z.custom<Readable>().meta({ type: "string", format: "binary" });

/**
 * Reads a multipart submission: the text fields (checked by their zod schema) and up to 3 files,
 * each streamed to storage as it arrives (up to 200 MB each; never held in memory) and judged by its
 * content on the way. Every file stored is in `stored` as soon as it has a key, so the caller can
 * remove them all when anything fails.
 */
async function readSubmission(
  request: FastifyRequest,
  maxFileBytes: number,
  storage: FileStorage,
  stored: StoredUpload[],
) {
  if (!request.isMultipart()) throw new AppError(415, "Send the submission as multipart/form-data.");
  const fields: Record<string, string> = {};
  const tooLarge = () => new AppError(413, `Each file is at most ${Math.round((maxFileBytes / MB) * 10) / 10} MB.`);
  try {
    for await (const part of request.parts({
      limits: { fileSize: maxFileBytes, files: PRACTICAL_MAX_FILES, fields: 5, fieldSize: 100_000, parts: 9 },
    })) {
      if (part.type === "file") {
        if (part.fieldname !== "files") throw badRequest(`Unexpected file field '${part.fieldname}'.`);
        const id = randomUUID();
        const file: StoredUpload = {
          id,
          name: displayName(part.filename),
          contentType: "",
          size: 0,
          storageKey: `practical/${id}`,
        };
        stored.push(file);
        const inspector = practicalFileInspector();
        part.file.on("error", (error) => inspector.stream.destroy(error));
        await storage.putStream(file.storageKey, part.file.pipe(inspector.stream));
        if (part.file.truncated) throw tooLarge();
        file.size = inspector.size();
        // An empty file field (the browser's "no file chosen") is no file.
        if (file.size === 0 && !part.filename) {
          stored.pop();
          await storage.remove(file.storageKey);
          continue;
        }
        const contentType = await inspector.contentType();
        if (!contentType) throw fileTypeRefusal(part.filename);
        file.contentType = contentType;
      } else if (typeof part.value === "string") {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    const code = errorField(error, "code");
    if (code === "FST_REQ_FILE_TOO_LARGE") throw tooLarge();
    if (code === "FST_FILES_LIMIT") throw new AppError(413, `Attach at most ${PRACTICAL_MAX_FILES} files.`);
    if (error instanceof AppError || errorField(error, "statusCode")) throw error;
    // A body busboy cannot read (no boundary, cut short): the sender's fault, not ours.
    throw badRequest("The submission could not be read as multipart/form-data.");
  }
  const parsed = practicalSubmissionFieldsSchema.safeParse(fields);
  if (!parsed.success) throw badRequest(firstIssue(parsed.error).message);
  return { text: parsed.data.text };
}

/** The practical skills assessment: the learner's page and submissions, files, and the assessors' review queue. */
export function practicalRoutes(catalogue: CourseCatalogue, storage: FileStorage): FastifyPluginAsyncZod {
  return async (app) => {
    const { config } = app.deps;
    const deps = { db: app.deps.database.db, config, storage };
    const maxFileBytes = config.practical.maxFileBytes;
    // Multipart bodies are accepted in this plugin only; everywhere else stays JSON-only.
    await app.register(multipart, { limits: { fileSize: maxFileBytes, files: PRACTICAL_MAX_FILES } });

    app.get(
      "/api/practical/:courseId",
      { schema: { params: practicalCourseParamsSchema, response: { 200: learnerPracticalSchema } } },
      async (request) => {
        const user = await requireUser(request);
        const latest = requireCourse(await catalogue.course(request.params.courseId));
        return getLearnerPractical(deps, user, await servedCourseFor(catalogue, deps.db, user.id, latest));
      },
    );

    app.post(
      "/api/practical/:courseId",
      {
        schema: { params: practicalCourseParamsSchema, response: { 200: learnerPracticalSchema } },
        bodyLimit: PRACTICAL_MAX_FILES * maxFileBytes + MB,
        config: { rateLimit: { max: 20, timeWindow: "1 minute" } },
      },
      async (request) => {
        // Who may submit is decided before any byte of the body is read: a refusal reads nothing.
        const user = await requireUser(request);
        const latest = requireCourse(await catalogue.course(request.params.courseId));
        const course = await servedCourseFor(catalogue, deps.db, user.id, latest);
        const allowed = await checkMaySubmit(deps, user, course);
        const stored: StoredUpload[] = [];
        try {
          const { text } = await readSubmission(request, maxFileBytes, storage, stored);
          return await recordSubmission(deps, user, course, allowed, { text, files: stored });
        } catch (error) {
          // What was stored before the refusal goes, retried until storage lets it go (decision 0059).
          if (stored.length > 0)
            await trigger(deps.db, removeStoredFiles, { keys: stored.map((f) => f.storageKey) }).catch((failure) =>
              request.log.error(
                { err: failure, storageKeys: stored.map((f) => f.storageKey) },
                "refused upload's files not queued for removal",
              ),
            );
          throw error;
        }
      },
    );

    // Files go to their learner, the course's live assessors and admins only, always as downloads
    // (a recording still plays in the review page's player: media elements ignore the disposition),
    // whole or as one byte range (206; 416 past the end), under the same check.
    app.get(
      "/api/practical-files/:fileId",
      {
        schema: {
          params: practicalFileParamsSchema,
          response: {
            200: { content: { "*/*": { schema: binaryFileSchema } } },
            206: { content: { "*/*": { schema: byteStreamSchema } } },
            416: messageSchema,
          },
        },
      },
      async (request, reply) => {
        const user = await requireUser(request);
        const file = await findFile(deps.db, request.params.fileId);
        if (!file) throw notFound("File not found.");
        const owner = file.userId === user.id;
        if (!owner && user.role !== "assessor" && user.role !== "admin") throw forbidden("This file is not yours.");
        if (!owner && user.role === "assessor") {
          const submission = await findSubmission(deps.db, Number(file.submissionId));
          const course = submission ? (await catalogue.get()).byId.get(submission.courseId) : undefined;
          if (!course) throw notFound("File not found.");
          await requireLiveAssessor(deps, user, course);
        }
        // The row may outlive its stored bytes (removed from the bucket by hand or by a lifecycle rule).
        const missing = (error: unknown): never => {
          if (error instanceof FileMissingError) throw notFound("File not found.");
          throw error;
        };
        const size = await storage.size(file.storageKey).catch(missing);
        const range = requestedRange(request.headers.range, size);
        if (range === "unsatisfiable")
          return reply
            .code(416)
            .header("content-range", `bytes */${size}`)
            .header("cache-control", "private, no-store")
            .send({ message: `The range asked for is outside the file (${size} bytes).` });
        let name = file.name;
        if (!owner) {
          const siblings = await deps.db
            .selectFrom("practicalFile")
            .select("id")
            .where("submissionId", "=", file.submissionId)
            .orderBy("name")
            .orderBy("id")
            .execute();
          name = anonymousFileName(
            Number(file.submissionId),
            siblings.findIndex((s) => s.id === file.id),
            file.contentType,
          );
        }
        reply
          .type(file.contentType === "text/plain" ? "text/plain; charset=utf-8" : file.contentType)
          .header(
            "content-disposition",
            `attachment; filename="download"; filename*=UTF-8''${encodeURIComponent(name)}`,
          )
          .header("content-security-policy", "sandbox; default-src 'none'")
          .header("cache-control", "private, no-store")
          // Ranges let the review page's player seek in a long recording without reading it whole.
          .header("accept-ranges", "bytes");
        if (!range) return reply.send(await storage.get(file.storageKey).catch(missing));
        const part = await storage.readRange(file.storageKey, range.start, range.end).catch(missing);
        return reply
          .code(206)
          .header("content-range", `bytes ${range.start}-${range.end}/${size}`)
          .header("content-length", range.end - range.start + 1)
          .send(part);
      },
    );

    app.get(
      "/api/review/profile",
      { schema: { response: { 200: assessorProfileSchema.nullable() } } },
      async (request) => {
        const assessor = await requireAssessor(request);
        return findAssessorProfile(deps.db, assessor.id);
      },
    );

    // An assessor records their own qualifications; an admin sees them when assigning courses. Audited.
    app.put(
      "/api/review/profile",
      { schema: { body: assessorProfileInputSchema, response: { 200: assessorProfileSchema } } },
      async (request) => {
        const assessor = await requireAssessor(request);
        await deps.db.transaction().execute(async (trx) => {
          await requireLiveAccount(trx, assessor.id);
          await upsertAssessorProfile(trx, assessor.id, request.body, new Date().toISOString());
          await recordAudit(trx, assessor, "assessor.profile", assessor.email, {
            credential: request.body.credential,
            awardingBody: request.body.awardingBody,
          });
        });
        const saved = await findAssessorProfile(deps.db, assessor.id);
        if (!saved) throw notFound("Profile not found.");
        return saved;
      },
    );

    app.get(
      "/api/review/calibration",
      { schema: { response: { 200: calibrationOverviewSchema } } },
      async (request) => {
        const assessor = await requireAssessor(request);
        return calibrationOverview(deps.db, await catalogue.get(), assessor);
      },
    );

    app.get(
      "/api/review/calibration/:courseId/:exemplarId",
      { schema: { params: calibrationParamsSchema, response: { 200: calibrationExemplarSchema } } },
      async (request) => {
        const assessor = await requireAssessor(request);
        const { courseId, exemplarId } = request.params;
        return getExemplar(deps.db, await catalogue.get(), assessor, courseId, exemplarId);
      },
    );

    app.post(
      "/api/review/calibration/:courseId/:exemplarId",
      {
        schema: {
          params: calibrationParamsSchema,
          body: reviewInputSchema,
          response: { 200: calibrationExemplarSchema },
        },
      },
      async (request) => {
        const assessor = await requireAssessor(request);
        const { courseId, exemplarId } = request.params;
        return scoreExemplar(deps.db, await catalogue.get(), assessor, courseId, exemplarId, request.body);
      },
    );

    app.get(
      "/api/admin/assessor-agreement",
      { schema: { response: { 200: agreementReportSchema } } },
      async (request) => {
        await requireAdmin(request);
        return agreementReport(deps, await catalogue.get());
      },
    );

    app.get("/api/review/queue", { schema: { response: { 200: reviewQueueSchema } } }, async (request) => {
      const assessor = await requireAssessor(request);
      return reviewQueue(deps, await catalogue.get(), assessor);
    });

    app.get(
      "/api/review/submissions/:number",
      { schema: { params: submissionParamsSchema, response: { 200: reviewSubmissionSchema } } },
      async (request) => {
        const assessor = await requireAssessor(request);
        return getReviewSubmission(deps, await catalogue.get(), assessor, request.params.number);
      },
    );

    app.post(
      "/api/review/submissions/:number/claim",
      { schema: { params: submissionParamsSchema, body: emptyBodySchema, response: { 200: reviewSubmissionSchema } } },
      async (request) => {
        const assessor = await requireAssessor(request);
        await claim(deps, await catalogue.get(), assessor, request.params.number);
        return getReviewSubmission(deps, await catalogue.get(), assessor, request.params.number);
      },
    );

    app.post(
      "/api/review/submissions/:number/release",
      { schema: { params: submissionParamsSchema, body: emptyBodySchema, response: { 200: reviewSubmissionSchema } } },
      async (request) => {
        const assessor = await requireAssessor(request);
        await release(deps, assessor, request.params.number);
        return getReviewSubmission(deps, await catalogue.get(), assessor, request.params.number);
      },
    );

    app.post(
      "/api/review/submissions/:number/review",
      {
        schema: { params: submissionParamsSchema, body: reviewInputSchema, response: { 200: reviewSubmissionSchema } },
      },
      async (request) => {
        const assessor = await requireAssessor(request);
        return submitReview(deps, await catalogue.get(), assessor, request.params.number, request.body);
      },
    );
  };
}
