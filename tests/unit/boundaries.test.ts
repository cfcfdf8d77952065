import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { biomeWithModuleOverrides, MODULE_LAYERS, MODULES_DIR, moduleFolders } from "../../scripts/module-layers.ts";

const biomeText = readFileSync("biome.json", "utf8");
const biomeBin = resolve("node_modules/.bin/biome");

// Biome lints probe files in a scratch copy of the project's rules, so the probes never sit in the
// source tree where a parallel `npm run check` would see them.
const scratch = mkdtempSync(join(tmpdir(), "boundaries-"));
const config = JSON.parse(biomeText);
delete config.$schema;
config.vcs = { enabled: false };
config.files = { includes: ["**"] };
writeFileSync(join(scratch, "biome.json"), JSON.stringify(config));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The import rules' complaints about a file at `path` holding `source`. */
function restrictedImports(path: string, source: string): string[] {
  const file = join(scratch, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, source);
  let output: string;
  try {
    output = execFileSync(biomeBin, ["lint", "--reporter=json", "--only=style/noRestrictedImports", path], {
      cwd: scratch,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (error) {
    output = (error as { stdout: string }).stdout;
  } finally {
    rmSync(file);
  }
  const report = JSON.parse(output) as { diagnostics: { category: string; description: string }[] };
  return report.diagnostics.filter((d) => d.category === "lint/style/noRestrictedImports").map((d) => d.description);
}

const importing = (specifier: string) => `import * as other from "${specifier}";\nexport const probe = other;\n`;

describe("module boundaries", () => {
  it("gives every server module folder a layer, and no layer to a folder that is gone", () => {
    expect(moduleFolders().filter((m) => !(m in MODULE_LAYERS))).toEqual([]);
    expect(Object.keys(MODULE_LAYERS).filter((m) => !moduleFolders().includes(m))).toEqual([]);
  });

  it("has biome.json's module rules written from the layer table (npm run boundaries)", () => {
    const expected = JSON.parse(biomeWithModuleOverrides(biomeText));
    expect(JSON.parse(biomeText).overrides).toEqual(expected.overrides);
  });

  it("refuses an import into a module of the same or a higher layer, and into a route-only module", () => {
    expect(
      restrictedImports(`${MODULES_DIR}/practitioners/probe.ts`, importing("../checkout/refunds.ts")),
    ).toHaveLength(1);
    expect(
      restrictedImports(`${MODULES_DIR}/progress/probe.ts`, importing("../course-pages/course-pages.service.ts")),
    ).toHaveLength(1);
    expect(
      restrictedImports(`${MODULES_DIR}/learning/probe.ts`, importing("../practical/practical.service.ts")),
    ).toHaveLength(1);
    expect(restrictedImports(`${MODULES_DIR}/admin/probe.ts`, importing("../profile/profile.routes.ts"))).toHaveLength(
      1,
    );
    expect(restrictedImports(`${MODULES_DIR}/media/probe.ts`, importing("../courses/course-access.ts"))).toHaveLength(
      1,
    );
    expect(
      restrictedImports(
        `${MODULES_DIR}/site/probe.ts`,
        importing("#server/modules/certificates/certificates.service.ts"),
      ),
    ).toHaveLength(1);
  });

  it("lets a module import the layers below it", () => {
    expect(
      restrictedImports(`${MODULES_DIR}/course-pages/probe.ts`, importing("../progress/learner-state.ts")),
    ).toEqual([]);
    expect(restrictedImports(`${MODULES_DIR}/admin/probe.ts`, importing("../checkout/refunds.ts"))).toEqual([]);
    expect(restrictedImports(`${MODULES_DIR}/progress/probe.ts`, importing("../courses/course-access.ts"))).toEqual([]);
  });

  it("refuses an import of the data layer's fast-path implementation from outside db/, wherever it comes from", () => {
    expect(restrictedImports(`${MODULES_DIR}/progress/probe.ts`, importing("../../db/prepared.ts"))).toHaveLength(1);
    expect(restrictedImports("src/server/plugins/probe.ts", importing("../db/group-commit.ts"))).toHaveLength(1);
    expect(restrictedImports("src/server/jobs/probe.ts", importing("#server/db/prepared.ts"))).toHaveLength(1);
    expect(restrictedImports("tests/api/probe.test.ts", importing("#server/db/group-commit.ts"))).toHaveLength(1);
    expect(restrictedImports("bench/probe.ts", importing("../src/server/db/prepared.ts"))).toHaveLength(1);
  });

  it("lets everyone use the fast paths through db/fast-paths.ts, and db/ its own files", () => {
    expect(restrictedImports(`${MODULES_DIR}/progress/probe.ts`, importing("../../db/fast-paths.ts"))).toEqual([]);
    expect(restrictedImports("tests/api/probe.test.ts", importing("#server/db/fast-paths.ts"))).toEqual([]);
    expect(restrictedImports("src/server/db/probe.ts", importing("./group-commit.ts"))).toEqual([]);
  });
});
