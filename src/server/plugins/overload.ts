import underPressure from "@fastify/under-pressure";
import type { FastifyInstance } from "fastify";
import type { Config } from "../config.ts";
import type { Database } from "../db/database.ts";
import { AppError } from "../errors.ts";
import { OVERLOADED_MESSAGE, RETRY_AFTER } from "./errors.ts";

/** How often the pool's queue is looked at; a request arriving meanwhile is judged by the last look. */
const QUEUE_CHECK_MS = 100;
/** A line about refused requests at most this often, with how many were refused since the last one. */
const LOG_EVERY_MS = 1000;
/** How often under-pressure averages the event loop's delay. */
const LOOP_SAMPLE_MS = 1000;

/**
 * Load is shed early (decision 0049): while the oldest request waiting for a database connection has
 * waited `queueWaitMs`, or while the event loop lags `eventLoopDelayMs`, every new request but
 * /healthz gets 503 with `Retry-After` at once instead of queueing behind the others for seconds, and
 * the log says overload, never that the database is away. @fastify/under-pressure does the measuring.
 */
export async function registerOverloadShedding(app: FastifyInstance, config: Config, database: Database) {
  const { queueWaitMs, eventLoopDelayMs } = config.overload;
  if (!queueWaitMs && !eventLoopDelayMs) return;
  let refused = 0;
  let loggedAt = 0;
  // The samples taken before and just after the listener opens cover the start itself (loading,
  // compiling routes: a loop that hardly turns, read as a delay of seconds or Infinity), not load:
  // a cold instance would shed its first requests. The loop's delay counts from the second sample on.
  let loopDelayCountsFrom = Number.POSITIVE_INFINITY;
  app.addHook("onListen", async () => {
    loopDelayCountsFrom = Date.now() + 2 * LOOP_SAMPLE_MS;
  });
  await app.register(underPressure, {
    ...(eventLoopDelayMs ? { maxEventLoopDelay: eventLoopDelayMs, sampleInterval: LOOP_SAMPLE_MS } : {}),
    ...(queueWaitMs && database.engine === "postgres"
      ? { healthCheck: async () => database.oldestWaitMs() < queueWaitMs, healthCheckInterval: QUEUE_CHECK_MS }
      : {}),
    // A rejection goes to the error handler, which sends the AppError's status and message.
    pressureHandler: async (request, reply, type, value) => {
      // Liveness stays true: an overloaded process needs no restart.
      if (request.url === "/healthz") return;
      if (type === "eventLoopDelay" && Date.now() < loopDelayCountsFrom) return;
      refused++;
      const now = Date.now();
      if (now - loggedAt >= LOG_EVERY_MS) {
        const why = type === "healthCheck" ? "database connections all busy" : type;
        app.log.warn({ refused, cause: why, value }, "overloaded: refusing new requests with 503");
        loggedAt = now;
        refused = 0;
      }
      reply.header("retry-after", RETRY_AFTER.overloaded);
      throw new AppError(503, OVERLOADED_MESSAGE);
    },
  });
}
