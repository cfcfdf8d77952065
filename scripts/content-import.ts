import { loadConfig } from "#server/config.ts";
import { ContentError } from "#server/content/content-files.ts";
import { importContent } from "#server/content/content-import.ts";
import { openDatabase } from "#server/db/database.ts";
import { migrateToLatest } from "#server/db/migrate.ts";

const config = loadConfig();
const database = openDatabase(config.databaseUrl);
try {
  await migrateToLatest(database.db);
  const r = await importContent(database.db);
  console.log(`Imported ${r.courses} courses, ${r.modules} modules, ${r.lessons} lessons, ${r.quizzes} quizzes.`);
} catch (error) {
  if (error instanceof ContentError) {
    console.error(`Content import stopped: ${error.message}`);
    process.exitCode = 1;
  } else throw error;
} finally {
  await database.close();
}
