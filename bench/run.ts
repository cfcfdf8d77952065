/**
 * npm run bench: each API route of the real app (its own process, production mode, request logs
 * written to a file) against a bare node:http process that sends the very same bytes, run beside
 * each other and alternating, with autocannon. Prints a table (req/s, ratio, p50, p99, p99 at half
 * the maximum rate), the statements per request with 10 and with many learners, and first-load JS.
 * Measures; asserts nothing; never fails the build.
 *
 * BENCH_QUICK=1      short runs, 10,000 learners (for iterating)
 * BENCH_DB=postgres  the app on PostgreSQL (BENCH_DATABASE_URL, default the local test database), and
 *                    beside it the same app on SQLite, so each route also shows PostgreSQL against SQLite
 * BENCH_PROFILE=1    the app and bare processes write CPU profiles (node --cpu-prof) to bench/profiles
 * BENCH_ONLY=a,b     only these routes (keys below)
 * BENCH_WORKERS=N    N app processes sharing the port (node:cluster, as WEB_CONCURRENCY does)
 * BENCH_ACCEPT_ENCODING="gzip, deflate, br, zstd"   reads ask for compressed answers, as browsers do (the
 *                    quiz submission's draw excepted); the bare server sends the compressed bytes the app sent
 *
 * Besides the rates, each side's CPU time per request (its process's user + system time over the
 * main runs, from /proc, divided by the requests answered): unlike req/s, it hardly moves when other
 * work shares the machine. Linux only; one app process (cluster workers are not counted).
 */
import { type ChildProcess, fork } from "node:child_process";
import { existsSync, openSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import autocannon from "autocannon";
import { must } from "../tests/setup/must.ts";

const quick = process.env.BENCH_QUICK === "1" || process.argv.includes("--quick");
const DURATION = Number(process.env.BENCH_DURATION ?? (quick ? 1.5 : 3));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (quick ? 1 : 2));
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const LEARNERS = Number(process.env.BENCH_LEARNERS ?? (quick ? 10_000 : 100_000));
const port = Number(process.env.BENCH_PORT ?? 3900);
const only = process.env.BENCH_ONLY?.split(",");
const logFile = join(tmpdir(), `academy-bench-${process.pid}.log`);

interface ServerInfo {
  url: string;
  engine: string;
  workers: number;
  learners: number;
  seedSeconds: number;
  requests: Record<string, { method: "GET" | "POST" | "PUT"; url: string; signedIn: boolean; body?: string }>;
  openLessons: string[];
  answerKey: Record<string, string>;
  responses: Record<string, unknown>;
  statementsWith10: Record<string, number>;
  statementsWithMany: Record<string, number>;
  itemStats: {
    ms: number;
    responses: number;
    live: { ms: number; responses: number; pending: number };
    rollup: { ms: number; attempts: number };
  };
  cookie: (learner: number) => string;
}

function start<T>(script: string, env: Record<string, string>, execArgv: string[], logTo: number | "inherit") {
  const child = fork(script, [], {
    env: { ...process.env, ...env },
    execArgv: ["--import", "tsx", ...execArgv],
    stdio: ["ignore", logTo, "inherit", "ipc"],
  });
  const ready = new Promise<T>((done, fail) => {
    child.on("message", (m: unknown) => {
      if (typeof m === "object" && m !== null && "ready" in m && m.ready) done(m as T);
    });
    child.on("exit", (code) => fail(new Error(`${script} exited with ${code}`)));
  });
  return { child, ready };
}
const stop = (child: ChildProcess) =>
  new Promise<void>((done) => {
    child.removeAllListeners("exit");
    child.once("exit", () => done());
    child.kill("SIGTERM");
  });

const profileArgs = process.env.BENCH_PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${resolve("bench/profiles")}`] : [];
const app = start<ServerInfo>(
  "bench/server.ts",
  { BENCH_PORT: String(port), BENCH_LEARNERS: String(LEARNERS) },
  profileArgs,
  openSync(logFile, "w"),
);
// On PostgreSQL, the same app on SQLite too (its own process, port and seeded file), as the reference.
const onPostgres = process.env.BENCH_DB === "postgres";
const sqliteApp = onPostgres
  ? start<ServerInfo>(
      "bench/server.ts",
      { BENCH_DB: "sqlite", BENCH_PORT: String(port + 2), BENCH_LEARNERS: String(LEARNERS), BENCH_PROFILE: "" },
      [],
      openSync(`${logFile}.sqlite`, "w"),
    )
  : null;
const [info, sqliteInfo] = await Promise.all([app.ready, sqliteApp?.ready]);
const { createHmac } = await import("node:crypto");
const secret = (info as unknown as { secret: string }).secret;
info.cookie = (learner) => {
  const token = `seed-token-${learner}`;
  return `better-auth.session_token=${encodeURIComponent(`${token}.${createHmac("sha256", secret).update(token).digest("base64")}`)}`;
};
// Profiled too, so the app's frames can be set beside the bare server's (bench/profile-top.ts <file>).
const bare = start<{ url: string }>("bench/bare.ts", { BENCH_BARE_PORT: String(port + 1) }, profileArgs, "inherit");
bare.child.send({ responses: info.responses });
const bareUrl = (await bare.ready).url;

/** A process's CPU time so far (user + system), in µs, from /proc; null where there is no /proc. */
function cpuMicros(pid: number | undefined): number | null {
  if (pid === undefined || !existsSync(`/proc/${pid}/stat`)) return null;
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th, in ticks of 10 ms.
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

interface Run {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  requests: number;
  /** CPU time the answering process spent during the run, in µs (null without /proc). */
  cpu: number | null;
}

/** What one autocannon connection carries from its draw (GET) to its answers (POST). */
interface DrawState {
  learner: number;
  drawn?: { attemptId: string; questions: { id: string }[] };
}
const drawStates = new WeakMap<object, DrawState>();
function drawState(context: object): DrawState {
  const known = drawStates.get(context);
  if (known) return known;
  const state: DrawState = { learner: 0 };
  drawStates.set(context, state);
  return state;
}
/** autocannon starts a connection's list again when setupRequest returns a falsy value (its README); its types leave that out. */
const RESTART = null as unknown as autocannon.Request;

/** Writes rotate over learners (and lessons), so every request writes a new row for a learner with a short history. */
let nextWrite = 100;
type Side = "app" | "bare" | "sqlite";
function load(key: string, target: Side, seconds: number, rate?: number): Promise<Run> {
  const r = must(info.requests[key], `the ${key} request`);
  const url =
    target === "app" ? `${info.url}${r.url}` : target === "sqlite" ? `${sqliteInfo!.url}${r.url}` : `${bareUrl}/${key}`;
  const isApp = target !== "bare";
  // Each app refuses writes from another origin: the SQLite one has its own.
  const headers: Record<string, string> = { origin: target === "sqlite" ? sqliteInfo!.url : info.url };
  if (r.body) headers["content-type"] = "application/json";
  if (r.signedIn) headers.cookie = info.cookie(0);
  const acceptEncoding = process.env.BENCH_ACCEPT_ENCODING;
  if (acceptEncoding && r.method === "GET" && key !== "quizSubmit") headers["accept-encoding"] = acceptEncoding;
  const rotate = isApp && key === "lessonComplete";
  // Each submission is its learner's own attempt: a POST to .../attempt draws it, the POST answers what was drawn.
  const submit = isApp && key === "quizSubmit";
  const pid = (target === "app" ? app.child : target === "sqlite" ? sqliteApp?.child : bare.child)?.pid;
  const cpuBefore = cpuMicros(pid);
  return autocannon({
    url,
    method: r.method,
    connections: CONNECTIONS,
    duration: seconds,
    headers,
    ...(r.body ? { body: r.body } : {}),
    ...(rate ? { overallRate: Math.max(1, Math.round(rate)) } : {}),
    ...(submit
      ? {
          requests: [
            {
              method: "POST",
              path: `${r.url}/attempt`,
              setupRequest: (req: autocannon.Request, context: object) => {
                const state = drawState(context);
                state.learner = 100 + nextWrite++;
                // The start has no body, so it sends no content type (as the app's client does).
                const headers = { ...req.headers, cookie: info.cookie(state.learner % info.learners) };
                delete headers["content-type"];
                return { ...req, body: undefined, headers };
              },
              onResponse: (_status: number, body: string, context: object) => {
                drawState(context).drawn = JSON.parse(body);
              },
            },
            {
              method: "POST",
              path: r.url,
              setupRequest: (req: autocannon.Request, context: object) => {
                const { drawn, learner } = drawState(context);
                if (!drawn?.questions) return RESTART;
                const answers = Object.fromEntries(drawn.questions.map((q) => [q.id, info.answerKey[q.id]]));
                return {
                  ...req,
                  body: JSON.stringify({ attemptId: drawn.attemptId, answers }),
                  headers: { ...req.headers, cookie: info.cookie(learner % info.learners) },
                };
              },
            },
          ],
        }
      : {}),
    ...(rotate
      ? {
          requests: [
            {
              setupRequest: (req: autocannon.Request) => {
                const n = nextWrite++;
                const lessons = info.openLessons;
                const learner = 100 + Math.floor(n / lessons.length);
                const path = r.url.replace(
                  /lessons\/[^/]+\/complete$/,
                  `lessons/${lessons[n % lessons.length]}/complete`,
                );
                return { ...req, path, headers: { ...req.headers, cookie: info.cookie(learner % info.learners) } };
              },
            },
          ],
        }
      : {}),
  }).then((result) => {
    const cpuAfter = cpuMicros(pid);
    return {
      rps: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      errors: result.non2xx + result.errors + result.timeouts,
      requests: result.requests.total,
      cpu: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore,
    };
  });
}

/** Targets against bare (issue 30's where it sets one), and, on PostgreSQL, against SQLite. */
const routes: { key: string; name: string; target: number; write?: boolean; vsSqlite?: number }[] = [
  { key: "courses", name: "GET /api/courses", target: 0.8 },
  { key: "courseVisitor", name: "GET /api/courses/{id} (visitor)", target: 0.8 },
  { key: "courseEnrolled", name: "GET /api/courses/{id} (enrolled)", target: 0.5 },
  { key: "progress", name: "GET /api/progress/{courseId}", target: 0.5, vsSqlite: 0.5 },
  { key: "quiz", name: "GET /api/quiz/{courseId}/{moduleId}", target: 0.5 },
  { key: "profileUpdate", name: "PUT /api/profile (durable write)", target: 0.2, write: true },
  { key: "lessonComplete", name: "POST .../lessons/{id}/complete", target: 0.2, write: true },
  {
    key: "quizSubmit",
    name: "POST draw + POST submit /api/quiz/{courseId}/{moduleId} (each a request)",
    target: 0.2,
    write: true,
  },
];

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const rows: string[] = [];
console.log(
  `\n${info.engine}, ${info.workers} app process${info.workers > 1 ? "es" : ""}, ${CONNECTIONS} connections, ${ROUNDS} x ${DURATION} s per side and route, ${info.learners.toLocaleString("en")} learners seeded (${info.seedSeconds.toFixed(1)} s); app log: ${logFile}\n`,
);
const header = `| route | req/s | bare req/s | ratio | target | p50 ms | p99 ms | bare p50 | bare p99 | p99 at half rate | bare p99 at half rate | CPU µs/req | bare CPU µs/req |${onPostgres ? " SQLite req/s | PostgreSQL / SQLite |" : ""}`;
console.log(header);
console.log(
  `| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |${onPostgres ? " ---: | ---: |" : ""}`,
);
/** CPU µs per request over runs, when /proc gave figures (a single app process only). */
const cpuPerRequest = (list: Run[], side: Side) => {
  const cpu = list.reduce((n, r) => n + (r.cpu ?? Number.NaN), 0);
  const requests = list.reduce((n, r) => n + r.requests, 0);
  return side !== "bare" && info.workers > 1 ? "–" : Number.isNaN(cpu) ? "–" : (cpu / requests).toFixed(0);
};
for (const route of routes) {
  if (only && !only.includes(route.key)) continue;
  const sides: Side[] = onPostgres ? ["bare", "app", "sqlite"] : ["bare", "app"];
  for (const side of sides) await load(route.key, side, 0.5);
  const runs: Record<Side, Run[]> = { app: [], bare: [], sqlite: [] };
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? sides : [...sides].reverse();
    for (const side of order) runs[side].push(await load(route.key, side, DURATION));
  }
  const appRps = mean(runs.app.map((r) => r.rps));
  const bareRps = mean(runs.bare.map((r) => r.rps));
  // Writes are compared with a bare read of the same bytes; latency at half the app's maximum rate.
  const halfApp = await load(route.key, "app", DURATION, appRps / 2);
  const halfBare = await load(route.key, "bare", DURATION, appRps / 2);
  const errors = [...runs.app, ...runs.bare, ...runs.sqlite, halfApp, halfBare].reduce((n, r) => n + r.errors, 0);
  const ratio = appRps / bareRps;
  const row = [
    route.name,
    appRps.toFixed(0),
    bareRps.toFixed(0),
    `${ratio.toFixed(2)}${ratio >= route.target ? "" : " ✗"}`,
    `≥${route.target}`,
    mean(runs.app.map((r) => r.p50)).toFixed(1),
    mean(runs.app.map((r) => r.p99)).toFixed(1),
    mean(runs.bare.map((r) => r.p50)).toFixed(1),
    mean(runs.bare.map((r) => r.p99)).toFixed(1),
    halfApp.p99.toFixed(1),
    halfBare.p99.toFixed(1),
    cpuPerRequest(runs.app, "app"),
    cpuPerRequest(runs.bare, "bare"),
  ];
  if (onPostgres) {
    const sqliteRps = mean(runs.sqlite.map((r) => r.rps));
    const vs = appRps / sqliteRps;
    row.push(
      sqliteRps.toFixed(0),
      `${vs.toFixed(2)}${route.vsSqlite && vs < route.vsSqlite ? ` ✗ (≥${route.vsSqlite})` : ""}`,
    );
  }
  const line = `| ${row.join(" | ")} |${errors ? ` (${errors} non-2xx or errors)` : ""}`;
  rows.push(line);
  console.log(line);
}

console.log(
  `\nStatements per request (10 learners -> ${info.learners.toLocaleString("en")}):\n${Object.keys(
    info.statementsWith10,
  )
    .map((k) => `  ${k.padEnd(15)} ${info.statementsWith10[k]} -> ${info.statementsWithMany[k]}`)
    .join("\n")}`,
);
console.log(
  `\nItem statistics (admin, one course): ${info.itemStats.responses.toLocaleString("en")} item responses from ${info.learners.toLocaleString("en")} learners' attempts in ${info.itemStats.ms} ms from the running sums (median of 3); ${info.itemStats.live.ms} ms with all ${info.itemStats.live.pending.toLocaleString("en")} attempts added up live, before the rollup; the rollup took in ${info.itemStats.rollup.attempts.toLocaleString("en")} attempts in ${info.itemStats.rollup.ms} ms`,
);
await Promise.all([stop(app.child), stop(bare.child), ...(sqliteApp ? [stop(sqliteApp.child)] : [])]);

// First-load JS from the Vite manifest: the entry, its static imports, and the page's own chunk.
const manifestPath = resolve("dist/client/.vite/manifest.json");
if (!existsSync(manifestPath)) {
  console.log("\nNo build found: run `npm run build` for the bundle sizes.");
} else {
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as Record<
    string,
    { file: string; imports?: string[]; isEntry?: boolean }
  >;
  const collect = (key: string, seen = new Set<string>()) => {
    const chunk = manifest[key];
    if (seen.has(key) || !chunk) return seen;
    seen.add(key);
    for (const dep of chunk.imports ?? []) collect(dep, seen);
    return seen;
  };
  const entry = must(
    Object.keys(manifest).find((k) => manifest[k]?.isEntry),
    "the entry chunk in dist/client/.vite/manifest.json",
  );
  const size = (keys: Set<string>) =>
    [...keys].reduce(
      (sum, k) => sum + gzipSync(readFileSync(join("dist/client", must(manifest[k], k).file))).length,
      0,
    );
  console.log("\nFirst-load JS (gzip):");
  for (const [label, page] of [
    ["landing (/ signed out)", "src/client/features/landing/landing-page.tsx"],
    ["catalogue (/ signed in)", "src/client/features/catalogue/catalogue-page.tsx"],
  ] as const) {
    const keys = collect(entry);
    collect(page, keys);
    console.log(`  ${label.padEnd(26)} ${(size(keys) / 1024).toFixed(1)} kB`);
  }
}
process.exit(0);
