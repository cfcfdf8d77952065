import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { Ajv2019 } from "ajv/dist/2019.js";
import addFormats from "ajv-formats";
import { expect } from "vitest";

/**
 * 1EdTech's Open Badges 3.0 AchievementCredential rules (required properties, arrays, value kinds),
 * from the fixture's source noted in its `$comment` (decision 0052).
 */
const schema = JSON.parse(
  readFileSync(resolve("tests/fixtures/open-badges/ob_v3p0_achievementcredential_schema.json"), "utf8"),
);
const ajv = new Ajv2019({ allErrors: true, strictTuples: false });
addFormats.default(ajv);
export const validateAchievementCredential = ajv.compile(schema);

/** Fails with every schema error, each with its path, when the credential breaks a rule. */
export function expectValidAchievementCredential(credential: unknown) {
  const valid = validateAchievementCredential(credential);
  expect(
    (validateAchievementCredential.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message}`),
    "Open Badges 3.0 AchievementCredential schema",
  ).toEqual([]);
  expect(valid).toBe(true);
}
