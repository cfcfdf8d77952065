import cluster from "node:cluster";
import { BRAND_NAME } from "#shared/constants.ts";
import { buildApp } from "./app.ts";
import { type Config, ConfigError, loadConfig } from "./config.ts";
import { importContentIfChanged } from "./content/content-import.ts";
import { type Database, openDatabase } from "./db/database.ts";
import { migrateToLatest } from "./db/migrate.ts";
import { createJobRunner } from "./jobs/job-runner.ts";

/** A process (or worker) that has not finished its requests by then is stopped; the whole stop stays within 10 s. */
const DRAIN_LIMIT_MS = 9000;

function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

/** Once per start, before any process serves: migrations and a content import when the files changed. */
async function prepare(database: Database) {
  await migrateToLatest(database.db);
  const imported = await importContentIfChanged(database.db);
  if (imported) console.log(JSON.stringify({ msg: "course content imported", courses: imported.courses }));
}

async function serve(config: Config, database: Database, started: number) {
  const app = await buildApp({
    config,
    database,
    logger: true,
    createJobs: (log) => createJobRunner(database, log),
  });
  await app.listen({ port: config.port, host: config.host });
  if (cluster.isPrimary) {
    app.log.info(`${BRAND_NAME} ready at ${config.appUrl} in ${Math.round(performance.now() - started)} ms`);
  } else {
    process.send?.({ type: "listening" });
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal}: finishing requests in flight, then exiting`);
    // Whatever still runs at the limit is cut off: the whole stop stays within the documented 10 s.
    setTimeout(() => {
      app.log.error("requests still running after the drain limit; exiting");
      app.server.closeAllConnections();
      process.exit(1);
    }, DRAIN_LIMIT_MS).unref();
    app.startDraining();
    if (config.shutdownDelayMs > 0) await new Promise((done) => setTimeout(done, config.shutdownDelayMs));
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

/** The primary only supervises: it forks the workers, replaces any that crash, and stops them all on SIGTERM. */
function superviseWorkers(config: Config, started: number) {
  const count = config.webConcurrency;
  let listening = 0;
  let stopping = false;
  const fork = () => {
    const worker = cluster.fork();
    worker.on("message", (message: { type?: string }) => {
      if (message?.type !== "listening") return;
      listening++;
      if (listening === count) {
        console.log(
          `${BRAND_NAME} ready at ${config.appUrl} with ${count} workers in ${Math.round(performance.now() - started)} ms`,
        );
      }
    });
  };
  for (let i = 0; i < count; i++) fork();

  cluster.on("exit", (worker, code, signal) => {
    if (listening < count && !stopping) {
      console.error(`worker ${worker.process.pid} exited (${signal ?? code}) before serving; stopping`);
      stop("SIGTERM");
    }
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    console.error(`worker ${worker.process.pid} exited (${signal ?? code}); starting another`);
    fork();
  });

  function stop(signal: NodeJS.Signals) {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: finishing requests in flight, then exiting`);
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
    setTimeout(() => {
      console.error("workers still busy after the drain limit; stopping them");
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGKILL");
      process.exit(1);
    }, DRAIN_LIMIT_MS).unref();
  }
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

async function main() {
  const config = loadConfigOrExit();
  const started = performance.now();
  const open = () =>
    openDatabase(config.databaseUrl, {
      statementTimeoutMs: config.databaseStatementTimeoutMs,
      poolSize: config.databasePoolSize,
    });
  if (cluster.isWorker) return serve(config, open(), started);

  const database = open();
  await prepare(database);
  if (config.webConcurrency === 1) return serve(config, database, started);
  await database.close();
  superviseWorkers(config, started);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
