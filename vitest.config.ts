import { defineConfig, type TestProjectConfiguration } from "vitest/config";
import { testBrowserPath } from "./tests/setup/browser-path.ts";

// Browser journeys need Debian's Chromium (or its headless shell). CI always has it (.ci/run
// installs it); elsewhere they are left out, with a note, when it is missing.
const runBrowserTests = !!testBrowserPath() || !!process.env.CI;
if (!runBrowserTests) console.warn("Browser tests skipped: no Chromium found (apt-get install chromium).");

// .ci/run runs the SQLite and PostgreSQL suites at once, each with its own report file.
const jsonReport = process.env.VITEST_JSON_REPORT ?? "test-results/vitest.json";

export default defineConfig({
  test: {
    reporters: process.env.CI ? ["default", ["json", { outputFile: jsonReport }]] : ["default"],
    // Tests inside a file run in a random order (the seed is printed; repeat one with
    // --sequence.seed=N), so a test that leans on its neighbours' rows fails. Files keep their
    // order: each has its own database, and the slowest files start first.
    sequence: { shuffle: { files: false, tests: true } },
    // expect.poll waits for what the app does in the background (mail, jobs); 1 s (Vitest's default)
    // is too short on a loaded 2-core machine. It bounds a wait; it asserts nothing about speed.
    expect: { poll: { timeout: 15_000 } },
    projects: [
      {
        extends: true,
        test: {
          name: "unit+api",
          // Unit and content tests touch no database: the SQLite run has them, the PostgreSQL run
          // (TEST_DATABASE_URL) would only repeat them.
          include: process.env.TEST_DATABASE_URL
            ? ["tests/api/**/*.test.ts"]
            : ["tests/unit/**/*.test.ts", "tests/api/**/*.test.ts", "tests/content/**/*.test.ts"],
          environment: "node",
          // Files share one module graph per worker instead of importing the whole server again for
          // each file (about 5 s of CPU a file). Each file builds its own app over its own database,
          // and the few that fake the clock restore it, so nothing leaks between files.
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      ...(runBrowserTests
        ? ([
            {
              extends: true,
              test: {
                name: "e2e",
                include: ["tests/e2e/**/*.test.ts"],
                environment: "node",
                isolate: false,
                testTimeout: 180_000,
                hookTimeout: 180_000,
                fileParallelism: false,
              },
            },
          ] as TestProjectConfiguration[])
        : []),
    ],
  },
});
