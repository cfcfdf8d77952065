/**
 * One of BENCH_WORKERS app processes (node:cluster, sharing the port as `npm start` does with
 * WEB_CONCURRENCY): the real app on the database the bench server seeded.
 */
import { buildApp } from "#server/app.ts";
import { loadConfig } from "#server/config.ts";
import { openDatabase } from "#server/db/database.ts";

const env = JSON.parse(process.env.BENCH_WORKER_ENV ?? "{}") as Record<string, string>;
const schema = process.env.BENCH_WORKER_SCHEMA || undefined;
const config = loadConfig(env, env.BENCH_DIR);
const database = openDatabase(config.databaseUrl, { schema, poolSize: config.databasePoolSize });
const app = await buildApp({ config, database, logger: true, clientDir: `${env.BENCH_DIR}/none` });
await app.listen({ port: config.port, host: "127.0.0.1" });
process.send?.({ workerReady: true });
process.on("SIGTERM", () => void app.close().then(() => database.close().then(() => process.exit(0))));
