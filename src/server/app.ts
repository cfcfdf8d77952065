import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import compress from "@fastify/compress";
import rateLimit from "@fastify/rate-limit";
import fastifyStatic from "@fastify/static";
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
  type RouteOptions,
} from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { type Auth, createAuth } from "./auth/auth.ts";
import { type Background, createBackground } from "./background.ts";
import type { Config } from "./config.ts";
import { DEFAULT_CONTENT_DIR } from "./content/content-files.ts";
import { watchContentVersion } from "./content/content-watch.ts";
import { loadSiteContent } from "./content/site-content.ts";
import type { Database } from "./db/database.ts";
import { rollUpItemResponses } from "./db/item-response-tally.ts";
import { createInvalidation, type Invalidation } from "./invalidation/invalidation.ts";
import { createDatabaseJobRunner } from "./jobs/database-job-runner.ts";
import type { JobLog, JobRunner } from "./jobs/job-runner.ts";
import { createOneOffJobs, type OneOffJobs } from "./jobs/one-off-jobs.ts";
import { pruneExpiredRows } from "./jobs/prune.ts";
import { type HitCounter, sharedHitCounter } from "./limits/hit-counter.ts";
import { rateLimitStore } from "./limits/rate-limit-store.ts";
import { createMailer, type Mailer } from "./mail/mailer.ts";
import { sendDueEmails } from "./mail/outbox.ts";
import { adminRoutes } from "./modules/admin/admin.routes.ts";
import { adminCertificatesRoutes } from "./modules/admin/admin-certificates.routes.ts";
import { applyPendingEnrollments } from "./modules/admin/admin-enrollments.service.ts";
import { adminOutboxRoutes } from "./modules/admin/admin-outbox.routes.ts";
import { analyticsRoutes } from "./modules/admin/analytics.routes.ts";
import { authRoutes } from "./modules/auth/auth.routes.ts";
import { certificatesRoutes } from "./modules/certificates/certificates.routes.ts";
import { verifyCertificate } from "./modules/certificates/certificates.service.ts";
import { certificateLifecycleRoutes } from "./modules/certificates/lifecycle.routes.ts";
import { checkoutRoutes } from "./modules/checkout/checkout.routes.ts";
import { configRoutes } from "./modules/config/config.routes.ts";
import { coursesRoutes } from "./modules/course-pages/course-pages.routes.ts";
import { CourseCatalogue } from "./modules/courses/course-catalogue.ts";
import { credentialsRoutes } from "./modules/credentials/credentials.routes.ts";
import { credentialFor } from "./modules/credentials/credentials.service.ts";
import { enrollmentsRoutes } from "./modules/enrollments/enrollments.routes.ts";
import { healthRoutes } from "./modules/health/health.routes.ts";
import { assessmentRoutes } from "./modules/learning/assessment.routes.ts";
import { mediaRoutes } from "./modules/media/media.routes.ts";
import { practicalRoutes } from "./modules/practical/practical.routes.ts";
import { practitionersRoutes } from "./modules/practitioners/practitioners.routes.ts";
import { profileRoutes } from "./modules/profile/profile.routes.ts";
import { progressRoutes } from "./modules/progress/progress.routes.ts";
import { questionsRoutes } from "./modules/questions/questions.routes.ts";
import { encodePage } from "./modules/site/page-encoding.ts";
import { pageMetaFor, withPageMeta } from "./modules/site/page-meta.ts";
import { pageStatus } from "./modules/site/page-status.ts";
import { loadServerRenderer, mayBeSignedIn } from "./modules/site/server-render.ts";
import { shareImageRoutes } from "./modules/site/share-images.ts";
import { siteRoutes } from "./modules/site/site.routes.ts";
import { studioRoutes } from "./modules/studio/studio.routes.ts";
import { studioEditorsRoutes } from "./modules/studio/studio-editors.routes.ts";
import { createPaymentProvider } from "./payments/create-provider.ts";
import type { PaymentProvider } from "./payments/provider.ts";
import { registerAuth } from "./plugins/auth.ts";
import { registerDrain } from "./plugins/drain.ts";
import { registerErrorHandling } from "./plugins/errors.ts";
import { registerJsonBody } from "./plugins/json-body.ts";
import { registerOpenApi } from "./plugins/openapi.ts";
import { registerOverloadShedding } from "./plugins/overload.ts";
import { registerSecurity } from "./plugins/security.ts";
import { responseSerializerCompiler } from "./plugins/serialization.ts";
import { plainTextValidatorCompiler } from "./plugins/validation.ts";
import { connectRedis, type SharedRedis } from "./redis/shared-redis.ts";
import { batchedStdout, LazyRequestLogger } from "./request-log.ts";
import type { FileStorage } from "./storage/file-storage.ts";
import { removeStoredFiles, removeStoredFilesWith } from "./storage/remove-stored-files.ts";
import { storageFor } from "./storage/storage.ts";

export interface AppDeps {
  config: Config;
  database: Database;
  mailer?: Mailer;
  /** Folder of the built client; not served when missing (API-only tests). */
  clientDir?: string;
  logger?: boolean;
  /** Where log lines go when `logger` is on; by default stdout, written asynchronously. */
  logStream?: { write(line: string): void };
  /** Folder of the course files (content/courses), whose `media/` folders the lessons' figures come from. */
  contentDir?: string;
  /** Folder of the site texts (content/site); read once, here. */
  siteContentDir?: string;
  /** Background jobs; by default the in-process runner over our own tables (main.ts picks pg-boss on PostgreSQL). */
  createJobs?: (log: JobLog) => JobRunner;
  /** Told of every route as it is registered (the route fuzzer enumerates the API this way). */
  onRoute?: (route: RouteOptions) => void;
  /** Where uploaded files go; by default what the settings ask for (a folder, or an S3 bucket with S3_BUCKET). */
  storage?: FileStorage;
}

declare module "fastify" {
  interface FastifyInstance {
    deps: {
      config: Config;
      database: Database;
      auth: Auth;
      mailer: Mailer;
      catalogue: CourseCatalogue;
      payments: PaymentProvider | null;
      jobs: JobRunner;
      /** Work one event causes, queued in its transaction with `trigger` (jobs/one-off-jobs.ts, decision 0059). */
      oneOffJobs: OneOffJobs;
      background: Background;
      storage: FileStorage;
      /** Rate limits, lockouts, mail caps: Redis when configured, else (and while it is away) the database. */
      counters: HitCounter;
      /** Cache news across instances: publish(topic) / subscribe(topic, fn) (invalidation/invalidation.ts). */
      invalidation: Invalidation;
      /** The Redis of REDIS_URL, when set (decision 0031). */
      redis?: SharedRedis;
    };
  }
}

/** Fastify's request logging with one line per request, when it ends, instead of two. */
class OneLinePerRequest extends LogController {
  override incomingRequest() {}
  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    const line = {
      method: request.method,
      url: request.url,
      statusCode: reply.statusCode,
      responseTime: Math.round(reply.elapsedTime * 10) / 10,
    };
    if (error) reply.log.error({ ...line, err: error }, "request errored");
    // The app's logger with the request's id: the same line as the request's own logger would write,
    // which is then never made for most requests (request-log.ts).
    else request.server.log.info({ reqId: request.id, ...line }, "request completed");
  }
}

/** A hop count trusts that many proxies nearest the server: the client is the next address in X-Forwarded-For. */
function trustProxyOption(trust: Config["trustProxy"]) {
  if (typeof trust !== "number") return trust;
  return (_address: string, hop: number) => hop < trust;
}

export async function buildApp({
  config,
  database,
  mailer,
  clientDir = resolve("dist/client"),
  logger = false,
  logStream,
  createJobs = (log) => createDatabaseJobRunner(database.db, log),
  onRoute,
  siteContentDir,
  contentDir = DEFAULT_CONTENT_DIR,
  storage = storageFor(config.storage),
}: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    // One line per request (below), written asynchronously: the event loop never waits on stdout.
    // Lines are gathered up to 4 kB or 250 ms per write (one write per line was a tenth of a
    // signed-in read's time, decision 0042; how they are gathered, decision 0048); what is left is
    // flushed when the process exits.
    logger: logger
      ? {
          level: "info",
          stream: logStream ?? batchedStdout(),
        }
      : false,
    logController: new OneLinePerRequest(),
    childLoggerFactory: (parent, bindings, options) => new LazyRequestLogger(parent, bindings, options),
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: 1024 * 1024,
    // A client that sends its headers or body too slowly, or idles on a kept-alive connection, loses it
    // (408 for a slow request). Node checks these on a timer: often enough for the smallest of them.
    requestTimeout: config.timeouts.requestMs,
    keepAliveTimeout: config.timeouts.keepAliveMs,
    http: {
      headersTimeout: config.timeouts.headersMs,
      connectionsCheckingInterval: Math.max(100, Math.min(config.timeouts.headersMs / 2, 5000)),
    },
    return503OnClosing: false,
    // Every log line of a request carries its id (reqId): the proxy's X-Request-Id when it sent a sane one.
    genReqId: (request) => {
      const given = request.headers["x-request-id"];
      return typeof given === "string" && /^[\w.:-]{1,100}$/.test(given) ? given : randomUUID();
    },
  }).withTypeProvider<ZodTypeProvider>();
  if (onRoute) app.addHook("onRoute", onRoute);
  app.setValidatorCompiler(plainTextValidatorCompiler);
  // Responses are checked against their zod schemas everywhere but in production.
  app.setSerializerCompiler(responseSerializerCompiler(config.env !== "production"));

  const mail = mailer ?? createMailer(config, app.log);
  const background = createBackground(app.log);
  const redis = config.redis ? connectRedis(config.redis, app.log) : undefined;
  const counters = sharedHitCounter(database.db, redis);
  const invalidation = createInvalidation(database, redis, app.log);
  const auth = createAuth({
    config,
    db: database.db,
    engine: database.engine,
    background,
    counters,
    log: app.log,
    onAddressVerified: (user) => applyPendingEnrollments(database.db, user),
  });
  const catalogue = new CourseCatalogue(database.db);
  const payments = createPaymentProvider(config, database.db);
  const jobs = createJobs(app.log);
  const oneOffJobs = createOneOffJobs(database.db, app.log);
  oneOffJobs.handle(removeStoredFiles, removeStoredFilesWith(storage));
  app.decorate("deps", {
    config,
    database,
    auth,
    mailer: mail,
    catalogue,
    payments,
    jobs,
    oneOffJobs,
    background,
    storage,
    counters,
    invalidation,
    redis,
  });
  const contentWatch = watchContentVersion(database, app.log);
  app.addHook("onClose", async () => {
    catalogue.dispose();
    await contentWatch.stop();
  });
  // An instance that finds Redis away at start serves anyway, degraded, and keeps trying.
  if (redis) app.addHook("onReady", async () => void (await redis.connected(2000)));
  app.addHook("onClose", async () => {
    await invalidation.stop();
    // Mail still going out counts against the caps first.
    await background.idle();
    await redis?.close();
  });
  // Jobs are registered by the plugins below and start once everything is loaded.
  app.addHook("onReady", async () => jobs.start());
  app.addHook("onClose", async () => jobs.stop());
  // Mail for requests already answered goes out before the process exits.
  app.addHook("onClose", async () => background.idle());
  app.addHook("onClose", async () => storage.close?.());
  jobs.every("prune-expired-rows", 60 * 60 * 1000, () => pruneExpiredRows(database.db));
  // Every message the academy sends is an outbox row (mail/outbox.ts, decision 0050); this job sends them.
  jobs.every("email-outbox", 1000, () => sendDueEmails({ db: database.db, mailer: mail, log: app.log }));
  // Work one event causes (trigger), run once each; handlers are registered above and by the plugins.
  jobs.every("one-off-jobs", 1000, () => oneOffJobs.runDue());
  // The item statistics' running sums take in new attempts every 10 s (decision 0039), so the part the
  // read still adds up live stays small even while many learners submit.
  jobs.every("item-response-rollup", 10 * 1000, () => rollUpItemResponses(database.db));

  // JSON only: any other body type is refused with 415; one nested too deeply is refused with 400 before parsing.
  app.removeContentTypeParser("text/plain");
  registerJsonBody(app);
  // Synchronous hooks: an async one costs a promise and a tick per request.
  app.addHook("onRequest", (request, reply, done) => {
    reply.header("x-request-id", request.id);
    done();
  });
  registerDrain(app);
  registerErrorHandling(app);
  // Before the rest of the request's work: an overloaded instance refuses at once (decision 0049).
  await registerOverloadShedding(app, config, database);
  registerSecurity(app, config);
  // Responses only: no client of ours compresses what it sends, and undoing it took a hook on every
  // request (decision 0048); a compressed body is refused as JSON it is not. The course list and course
  // pages compress their own answers (`compress: false`, plugins/serialization.ts).
  await app.register(compress, { threshold: 1024, globalDecompression: false });
  // Per-route limits (verify page, PDF, coupons), counted in Redis or the database so every instance
  // shares them; sign-in, sign-up and reset limits live in Better Auth, in the same place.
  await app.register(rateLimit, {
    global: false,
    store: rateLimitStore(database.db, redis),
    errorResponseBuilder: (_req, ctx) => ({
      statusCode: 429,
      message: `Too many requests. Try again in ${ctx.after}.`,
    }),
  });
  // Before any route, so the OpenAPI document learns of every one.
  await registerOpenApi(app);
  registerAuth(app, auth, config, database.db);

  await app.register(healthRoutes);
  await app.register(authRoutes);
  await app.register(configRoutes(config, loadSiteContent(siteContentDir)));
  await app.register(coursesRoutes(catalogue));
  await app.register(enrollmentsRoutes);
  await app.register(progressRoutes(catalogue));
  await app.register(assessmentRoutes(catalogue));
  await app.register(practicalRoutes(catalogue, storage));
  await app.register(certificatesRoutes(catalogue, (row) => credentialFor(database.db, config, catalogue, row)));
  await app.register(certificateLifecycleRoutes(catalogue));
  await app.register(credentialsRoutes(catalogue));
  await app.register(profileRoutes);
  await app.register(practitionersRoutes(catalogue));
  await app.register(checkoutRoutes(catalogue, payments));
  await app.register(questionsRoutes(catalogue));
  await app.register(adminRoutes(catalogue));
  await app.register(studioRoutes);
  await app.register(studioEditorsRoutes);
  await app.register(adminCertificatesRoutes(catalogue));
  await app.register(adminOutboxRoutes);
  await app.register(analyticsRoutes(catalogue));
  await app.register(siteRoutes(config, catalogue));
  // Public pages' share tags and share images (decision 0067) read the same sources.
  const metaSources = {
    appUrl: config.appUrl,
    catalogue: () => catalogue.get(),
    certificate: async (certificateId: string) =>
      verifyCertificate(database.db, catalogue, certificateId).catch(() => null),
  };
  await app.register(
    shareImageRoutes({ ...metaSources, certificate: (id) => verifyCertificate(database.db, catalogue, id) }),
  );
  await app.register(mediaRoutes(contentDir));

  const hasClient = existsSync(resolve(clientDir, "index.html"));
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: clientDir,
      wildcard: false,
      index: false,
      cacheControl: false,
      setHeaders(reply, path) {
        // Hashed assets never change; the heading font's name is not hashed, so it is kept a week:
        // with `font-display: optional` a page uses it only when it is at hand for the first paint.
        reply.header(
          "cache-control",
          path.includes("/assets/")
            ? "public, max-age=31536000, immutable"
            : path.includes("/fonts/")
              ? "public, max-age=604800"
              : "no-cache",
        );
      },
    });
  }

  // The shell is read once; public pages get their own title, description and share tags in it.
  const shell = hasClient ? readFileSync(resolve(clientDir, "index.html"), "utf8") : "";
  // Public pages are painted on the server for visitors (decision 0032), from a visitor's reads of
  // the same API routes the browser would call; they count against the visitor's own limits.
  const renderPublicPage = hasClient ? await loadServerRenderer(clientDir) : null;
  const visitorRead = (ip: string) => async (url: string) => {
    const answer = await app.inject({ method: "GET", url, remoteAddress: ip, headers: { accept: "application/json" } });
    if (answer.statusCode !== 200)
      throw Object.assign(new Error(`GET ${url} answered ${answer.statusCode}`), { statusCode: answer.statusCode });
    return answer.json() as unknown;
  };
  const certificateExists = async (certificateId: string) =>
    !!(await database.db
      .selectFrom("certificate")
      .select("certificateId")
      .where("certificateId", "=", certificateId)
      .executeTakeFirst());
  app.setNotFoundHandler(async (request, reply) => {
    const [path = ""] = request.url.split("?");
    if (
      path.startsWith("/api/") ||
      path === "/api" ||
      !hasClient ||
      (request.method !== "GET" && request.method !== "HEAD")
    ) {
      return reply.status(404).send({ message: "Not found" });
    }
    // History fallback: every path gets the app shell, which renders its own 404 page for unknown
    // paths and content; those answer 404 so crawlers and link checkers see the truth.
    const status = await pageStatus(path, () => catalogue.get(), certificateExists);
    const meta = status === 200 ? await pageMetaFor(path, metaSources) : null;
    const page = withPageMeta(shell, meta);
    const painted =
      status === 200 && renderPublicPage && !mayBeSignedIn(request.headers.cookie)
        ? await renderPublicPage(page, request.url, visitorRead(request.ip)).catch((error: unknown) => {
            // A lesson past the preview is not a visitor's to read (401/403): expected, not a fault.
            const refused = [401, 403].includes((error as { statusCode?: number }).statusCode ?? 0);
            request.log[refused ? "debug" : "warn"]({ err: error }, "public page left to the browser");
            return null;
          })
        : null;
    const { encoding, body } = encodePage(painted ?? page, request.headers["accept-encoding"]);
    if (encoding) reply.header("content-encoding", encoding);
    return reply
      .status(status)
      .header("cache-control", "no-cache")
      .header("vary", "accept-encoding")
      .type("text/html; charset=utf-8")
      .send(body);
  });

  return app;
}
