/**
 * The server modules' layers, stated once. A module imports only modules of lower layers; route-only
 * modules import none and nothing imports them. `npm run boundaries` writes the matching
 * `noRestrictedImports` override for every module into biome.json, and tests/unit/boundaries.test.ts
 * fails when a module folder has no layer or biome.json is out of date (docs/architecture.md,
 * Boundaries).
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const ROUTES_ONLY = "routes only";

export const MODULE_LAYERS: Record<string, number | typeof ROUTES_ONLY> = {
  admin: 5,
  checkout: 4,
  credentials: 4,
  certificates: 3,
  learning: 2,
  practical: 2,
  "course-pages": 2,
  progress: 1,
  practitioners: 4,
  site: 1,
  studio: 1,
  questions: 1,
  courses: 0,
  coupons: 0,
  enrollments: 0,
  audit: 0,
  staff: 0,
  auth: ROUTES_ONLY,
  config: ROUTES_ONLY,
  profile: ROUTES_ONLY,
  health: ROUTES_ONLY,
  media: ROUTES_ONLY,
};

export const MODULES_DIR = "src/server/modules";
const MESSAGE =
  "Server modules import only lower layers; route-only modules import none (scripts/module-layers.ts, docs/architecture.md, Boundaries).";

/**
 * The data layer's fast paths are reached through `db/fast-paths.ts` only. Biome lets a later
 * override replace an earlier one's patterns, so every override that sets import rules for server,
 * test, bench or script files carries this pattern too (biome.json).
 */
export const DB_INTERNALS = {
  group: ["**/db/prepared.ts", "**/db/group-commit.ts", "*server/db/prepared.ts", "*server/db/group-commit.ts"],
  message: "Use the data layer's fast paths through db/fast-paths.ts, never its implementation files (decision 0040).",
};

export const moduleFolders = (root = ".") =>
  readdirSync(`${root}/${MODULES_DIR}`, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();

/** The modules a module may not import, as import patterns (relative and aliased). */
function forbiddenFor(name: string): string[] {
  const own = MODULE_LAYERS[name];
  if (own === undefined) throw new Error(`${name} has no layer in MODULE_LAYERS.`);
  return Object.entries(MODULE_LAYERS)
    .filter(([other, layer]) => other !== name && (own === ROUTES_ONLY || layer === ROUTES_ONLY || layer >= own))
    .flatMap(([other]) => [`../${other}/**`, `*server/modules/${other}/**`]);
}

/** One biome override per module, in the table's order. */
export function moduleOverrides() {
  return Object.keys(MODULE_LAYERS).map((name) => ({
    includes: [`${MODULES_DIR}/${name}/**`],
    linter: {
      rules: {
        style: {
          noRestrictedImports: {
            level: "error",
            options: { patterns: [{ group: forbiddenFor(name), message: MESSAGE }, DB_INTERNALS] },
          },
        },
      },
    },
  }));
}

type Override = { includes: string[] };
const isModuleOverride = (o: Override) => o.includes.every((i) => i.startsWith(`${MODULES_DIR}/`));

/** biome.json with its module overrides replaced by the generated ones, as text. */
export function biomeWithModuleOverrides(text: string): string {
  const biome = JSON.parse(text) as { overrides: Override[] };
  const kept = biome.overrides.filter((o) => !isModuleOverride(o));
  biome.overrides = [...kept, ...moduleOverrides()];
  return `${JSON.stringify(biome, null, 2)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const missing = moduleFolders().filter((m) => !(m in MODULE_LAYERS));
  if (missing.length > 0) {
    console.error(`Give these module folders a layer in scripts/module-layers.ts: ${missing.join(", ")}`);
    process.exit(1);
  }
  writeFileSync("biome.json", biomeWithModuleOverrides(readFileSync("biome.json", "utf8")));
  console.log(`biome.json: ${Object.keys(MODULE_LAYERS).length} module boundary rules written`);
}
