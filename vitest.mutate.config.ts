import { defineConfig } from "vitest/config";

// The tests Stryker runs against each mutant (npm run test:mutate): unit and API tests, no browser.
// MUTATE_TESTS narrows them (e.g. "tests/unit/**/*.test.ts") for a quicker run.
export default defineConfig({
  test: {
    include: (process.env.MUTATE_TESTS ?? "tests/unit/**/*.test.ts,tests/api/**/*.test.ts").split(","),
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
