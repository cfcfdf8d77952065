/**
 * npm run bench: throughput and p99 latency of the course and learning API, each beside a bare
 * route on the same server that sends the same bytes from memory, plus the first-load JS of the
 * landing and catalogue pages read from the build. Measures; asserts nothing.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { gzipSync } from "node:zlib";
import autocannon from "autocannon";

const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const port = Number(process.env.BENCH_PORT ?? 3900);

const server = spawn(process.execPath, ["--import", "tsx", "bench/server.ts"], {
  env: { ...process.env, BENCH_PORT: String(port) },
  stdio: ["ignore", "pipe", "inherit"],
});
const info = await new Promise<Record<string, any>>((done, fail) => {
  const lines = createInterface({ input: server.stdout! });
  lines.on("line", (line) => {
    if (line.startsWith("{") && line.includes('"ready"')) done(JSON.parse(line));
  });
  server.on("exit", (code) => fail(new Error(`bench server exited with ${code}`)));
});

async function load(path: string, options: { method?: "GET" | "POST"; body?: string; cookie?: boolean } = {}) {
  const result = await autocannon({
    url: `${info.url}${path}`,
    method: options.method ?? "GET",
    connections: CONNECTIONS,
    duration: DURATION,
    headers: {
      "content-type": "application/json",
      origin: info.url,
      ...(options.cookie ? { cookie: info.cookie } : {}),
    },
    ...(options.body ? { body: options.body } : {}),
  });
  if (result.non2xx > 0) throw new Error(`${path}: ${result.non2xx} non-2xx answers`);
  return { rps: result.requests.average, p99: result.latency.p99 };
}

const submitBody = JSON.stringify({ answers: info.answers });
const routes = [
  { name: "GET /api/courses", real: () => load("/api/courses"), bare: () => load("/__bare/courses"), target: 0.9 },
  {
    name: "GET /api/courses/:id (visitor)",
    real: () => load(`/api/courses/${info.course}`),
    bare: () => load("/__bare/course"),
    target: 0.9,
  },
  {
    name: "GET /api/progress/:courseId",
    real: () => load(`/api/progress/${info.course}`, { cookie: true }),
    bare: () => load("/__bare/progress", { cookie: true }),
    target: 0.75,
  },
  {
    name: "POST /api/quiz/:courseId/:moduleId",
    real: () => load(`/api/quiz/${info.course}/${info.module}`, { method: "POST", body: submitBody, cookie: true }),
    bare: () => load("/__bare/submit", { method: "POST", body: submitBody, cookie: true }),
    target: 0.5,
  },
];

console.log(`\nAPI throughput (${CONNECTIONS} connections, ${DURATION} s each, one server process on this machine)\n`);
console.log(
  "route".padEnd(38),
  "req/s".padStart(9),
  "p99 ms".padStart(8),
  "bare req/s".padStart(11),
  "bare p99".padStart(9),
  "ratio".padStart(7),
  "target".padStart(7),
);
for (const r of routes) {
  const bare = await r.bare();
  const real = await r.real();
  const ratio = real.rps / bare.rps;
  console.log(
    r.name.padEnd(38),
    real.rps.toFixed(0).padStart(9),
    String(real.p99).padStart(8),
    bare.rps.toFixed(0).padStart(11),
    String(bare.p99).padStart(9),
    ratio.toFixed(2).padStart(7),
    `>=${r.target}`.padStart(7),
  );
}
console.log("\nDatabase statements per request (10 learners seeded -> 10,010):");
for (const key of Object.keys(info.queriesWith10))
  console.log(`  ${key.padEnd(9)} ${info.queriesWith10[key]} -> ${info.queriesWith10k[key]}`);
server.kill("SIGTERM");

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
    if (seen.has(key) || !manifest[key]) return seen;
    seen.add(key);
    for (const dep of manifest[key].imports ?? []) collect(dep, seen);
    return seen;
  };
  const entry = Object.keys(manifest).find((k) => manifest[k].isEntry)!;
  const size = (keys: Set<string>) =>
    [...keys].reduce((sum, k) => sum + gzipSync(readFileSync(join("dist/client", manifest[k].file))).length, 0);
  console.log("\nFirst-load JS (gzip):");
  for (const [label, page] of [
    ["landing (/ signed out)", "src/client/features/landing/landing-page.tsx"],
    ["catalogue (/ signed in)", "src/client/features/catalogue/catalogue-page.tsx"],
  ]) {
    const keys = collect(entry);
    collect(page, keys);
    console.log(`  ${label.padEnd(26)} ${(size(keys) / 1024).toFixed(1)} kB`);
  }
}
