import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "#server/config.ts";
import { ContentError, DEFAULT_CONTENT_DIR, loadContent } from "#server/content/content-files.ts";
import { type ImportOptions, importContent } from "#server/content/content-import.ts";
import { openDatabase } from "#server/db/database.ts";
import { migrateToLatest } from "#server/db/migrate.ts";
import { AppError } from "#server/errors.ts";

/**
 * npm run content:import [-- DIR] [--publish minor|major --note "..."]
 * Without --publish each course of DIR (content/courses by default) becomes its draft; with it, its next
 * published version (docs/decisions/0055).
 */
const USAGE = 'Usage: npm run content:import [-- DIR] [--publish minor|major --note "What changed"]';
const { values, positionals } = parseArgs({
  options: { publish: { type: "string" }, note: { type: "string" } },
  allowPositionals: true,
});
const publish = values.publish;
if ((publish !== undefined && publish !== "minor" && publish !== "major") || positionals.length > 1) {
  console.error(USAGE);
  process.exit(2);
}
if (publish && !values.note?.trim()) {
  console.error('A publish needs a change note: --note "What changed"');
  process.exit(2);
}
const options: ImportOptions = publish ? { mode: publish, note: values.note?.trim() } : { mode: "draft" };

const config = loadConfig();
const database = openDatabase(config.databaseUrl);
try {
  await migrateToLatest(database.db);
  const r = await importContent(database.db, loadContent(resolve(positionals[0] ?? DEFAULT_CONTENT_DIR)), options);
  for (const outcome of r.outcomes) {
    if (outcome.draftRevision !== undefined)
      console.log(`${outcome.courseId}: draft saved (revision ${outcome.draftRevision}).`);
    else if (outcome.version?.published)
      console.log(
        `${outcome.courseId}: published version ${outcome.version.version.version} (${outcome.version.version.kind}).`,
      );
    else console.log(`${outcome.courseId}: unchanged (version ${outcome.version?.version.version}).`);
  }
} catch (error) {
  if (error instanceof ContentError || error instanceof AppError) {
    console.error(`Content import stopped: ${error.message}`);
    process.exitCode = 1;
  } else throw error;
} finally {
  await database.close();
}
