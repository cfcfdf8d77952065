/**
 * npm run lighthouse: Lighthouse (mobile, its default simulated throttling) on the landing page,
 * sign-in, a course page, a lesson page, the practitioner directory and a certificate's verify page
 * of the built app, served by the real server on a fresh SQLite database with the real courses.
 * Debian's Chromium, headless. Measures; asserts nothing.
 *
 * CHROMIUM_PATH     browser to drive (default /usr/bin/chromium)
 * LIGHTHOUSE_PAGES  only these pages, by name, comma-separated (e.g. course,practitioners)
 * LIGHTHOUSE_WIDTHS each page at these viewport widths (e.g. 390,1280): up to 600 px a phone
 *                   (mobile throttling), wider a desktop (Lighthouse's desktop throttling); unset,
 *                   Lighthouse's default phone
 * LIGHTHOUSE_JSON   a folder to write each run's full report to (NAME-WIDTH.json), to see what
 *                   blocks the first paint
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { openDatabase } from "#server/db/database.ts";
import { giveCertificate } from "../tests/setup/factories.ts";

const port = Number(process.env.LIGHTHOUSE_PORT ?? 3950);
const base = `http://127.0.0.1:${port}`;
const dir = mkdtempSync(join(tmpdir(), "academy-lighthouse-"));
const databaseUrl = `sqlite:${join(dir, "lighthouse.db")}`;

if (!existsSync(resolve("dist/client/index.html")) || process.env.LIGHTHOUSE_BUILD !== "0") {
  const build = spawnSync("npx", ["vite", "build", "--logLevel", "warn"], { stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const server = spawn(process.execPath, ["--import", "tsx", "src/server/main.ts"], {
  env: {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    APP_URL: base,
    AUTH_SECRET: "lighthouse-secret-lighthouse-secret-00",
    DATABASE_URL: databaseUrl,
    MAIL_OUTBOX_DIR: join(dir, "outbox"),
    PAYMENTS_PROVIDER: "sandbox",
  },
  stdio: ["ignore", "ignore", "inherit"],
});
for (let i = 0; ; i++) {
  try {
    if ((await fetch(`${base}/api/courses`)).ok) break;
  } catch {}
  // Three minutes: on a loaded machine the first import of the real courses is slow.
  if (i > 1800) {
    server.kill("SIGTERM");
    rmSync(dir, { recursive: true, force: true });
    throw new Error("the server did not start");
  }
  await new Promise((r) => setTimeout(r, 100));
}

const courses = (await (await fetch(`${base}/api/courses`)).json()) as { id: string; comingSoon?: boolean }[];
const course = courses.find((c) => !c.comingSoon) ?? courses[0];
if (!course) throw new Error("The catalogue is empty: no course page to measure.");
const detail = (await (await fetch(`${base}/api/courses/${course.id}`)).json()) as {
  modules: { lessons: { id: string }[] }[];
};
const firstLesson = detail.modules[0]?.lessons[0];
if (!firstLesson) throw new Error(`${course.id} has no lesson: no lesson page to measure.`);

// A verify page needs a real certificate: a learner signs up through the real route, and the
// certificate is written as the tests write an earned one (tests/setup/factories.ts).
const signUp = await fetch(`${base}/api/auth/sign-up/email`, {
  method: "POST",
  headers: { "content-type": "application/json", origin: base },
  body: JSON.stringify({
    email: `lighthouse-${Date.now()}@example.com`,
    password: "calm-river-42",
    name: "Amara Okonkwo",
    firstName: "Amara",
    lastName: "Okonkwo",
  }),
});
if (!signUp.ok) throw new Error(`sign-up for the verify page answered ${signUp.status}`);
const learner = ((await signUp.json()) as { user: { id: string } }).user;
const database = openDatabase(databaseUrl);
const certificateId = await giveCertificate(
  database.db,
  { id: learner.id, firstName: "Amara", lastName: "Okonkwo" },
  course.id,
).finally(() => database.close());

const only = process.env.LIGHTHOUSE_PAGES?.split(",").map((name) => name.trim());
const pages = (
  [
    ["landing", "/"],
    ["sign-in", "/login"],
    ["course", `/course/${course.id}`],
    ["lesson", `/course/${course.id}/lesson/${firstLesson.id}`],
    ["practitioners", "/practitioners"],
    ["verify", `/verify/${certificateId}`],
  ] as const
).filter(([name]) => !only || only.includes(name));
const widths = process.env.LIGHTHOUSE_WIDTHS?.split(",").map(Number) ?? [undefined];
const emulation = (width: number | undefined) =>
  width === undefined
    ? {}
    : width <= 600
      ? {
          formFactor: "mobile" as const,
          screenEmulation: { mobile: true, width, height: 844, deviceScaleFactor: 3, disabled: false },
        }
      : {
          formFactor: "desktop" as const,
          screenEmulation: { mobile: false, width, height: 800, deviceScaleFactor: 1, disabled: false },
          throttling: {
            rttMs: 40,
            throughputKbps: 10240,
            cpuSlowdownMultiplier: 1,
            requestLatencyMs: 0,
            downloadThroughputKbps: 0,
            uploadThroughputKbps: 0,
          },
        };

const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
});
console.log("\n| page | width | performance | LCP (s) | CLS | TBT (ms) | FCP (s) |");
console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
try {
  for (const [name, path] of pages)
    for (const width of widths) {
      const run = async () =>
        (
          await lighthouse(`${base}${path}`, {
            port: chrome.port,
            onlyCategories: ["performance"],
            output: "json",
            logLevel: "error",
            ...emulation(width),
          })
        )?.lhr;
      // On a loaded machine Chromium's trace sometimes misses the navigation (NO_NAVSTART): once more.
      let lhr = await run();
      if (lhr?.runtimeError) lhr = await run();
      if (!lhr) throw new Error(`Lighthouse gave no report for ${path}`);
      const reports = process.env.LIGHTHOUSE_JSON;
      if (reports) {
        mkdirSync(reports, { recursive: true });
        writeFileSync(join(reports, `${name}-${width ?? "default"}.json`), JSON.stringify(lhr));
      }
      const audit = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
      const shifts = (
        lhr.audits["layout-shifts"]?.details as { items?: { node?: { selector?: string }; score?: number }[] }
      )?.items;
      if (process.env.LIGHTHOUSE_SHIFTS)
        for (const item of shifts ?? [])
          console.error(`  ${name}: shift ${item.score?.toFixed(3)} ${item.node?.selector}`);
      console.log(
        `| ${name} (${path.replace(course.id, "{course}").replace(certificateId, "{id}")}) | ${width ?? "default"} | ${Math.round((lhr.categories.performance?.score ?? 0) * 100)} | ${(audit("largest-contentful-paint") / 1000).toFixed(2)} | ${audit("cumulative-layout-shift").toFixed(3)} | ${audit("total-blocking-time").toFixed(0)} | ${(audit("first-contentful-paint") / 1000).toFixed(2)} |`,
      );
    }
} finally {
  await chrome.kill();
  server.kill("SIGTERM");
  rmSync(dir, { recursive: true, force: true });
}
