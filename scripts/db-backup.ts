import { resolve } from "node:path";
import SQLite from "better-sqlite3";
import { loadConfig } from "#server/config.ts";
import { sqliteFileFromUrl } from "#server/db/database.ts";

// Online, consistent copy through SQLite's backup API: the server may keep running.
const target = process.argv[2];
if (!target) {
  console.error("Usage: npm run db:backup -- FILE");
  process.exit(2);
}
const config = loadConfig();
if (!config.databaseUrl.startsWith("sqlite:")) {
  console.error("db:backup copies the SQLite database; for PostgreSQL use pg_dump.");
  process.exit(2);
}
const source = new SQLite(sqliteFileFromUrl(config.databaseUrl), { readonly: true, fileMustExist: true });
const started = Date.now();
await source.backup(resolve(target), {
  progress({ totalPages, remainingPages }) {
    process.stdout.write(`\rCopied ${totalPages - remainingPages}/${totalPages} pages`);
    return 200;
  },
});
source.close();
console.log(`\nBackup written to ${resolve(target)} in ${Date.now() - started} ms`);
