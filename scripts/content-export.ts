import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "#server/config.ts";
import { ContentError } from "#server/content/content-files.ts";
import { exportVersion } from "#server/content/course-versions.ts";
import { openDatabase } from "#server/db/database.ts";
import { migrateToLatest } from "#server/db/migrate.ts";

/** npm run content:export -- COURSE [--version N] DIR: writes a published version as course files in DIR/COURSE. */
const { values, positionals } = parseArgs({ options: { version: { type: "string" } }, allowPositionals: true });
const [courseId, dir] = positionals;
const version = values.version === undefined ? undefined : Number(values.version);
if (
  !courseId ||
  !dir ||
  positionals.length > 2 ||
  (version !== undefined && !(Number.isInteger(version) && version > 0))
) {
  console.error("Usage: npm run content:export -- COURSE [--version N] DIR");
  process.exit(2);
}

const config = loadConfig();
const database = openDatabase(config.databaseUrl);
try {
  await migrateToLatest(database.db);
  const written = await exportVersion(database.db, courseId, version, resolve(dir));
  console.log(`Wrote ${courseId} version ${written} to ${resolve(dir, courseId)}.`);
} catch (error) {
  if (error instanceof ContentError) {
    console.error(`Content export stopped: ${error.message}`);
    process.exitCode = 1;
  } else throw error;
} finally {
  await database.close();
}
