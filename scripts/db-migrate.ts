import { loadConfig } from "#server/config.ts";
import { openDatabase } from "#server/db/database.ts";
import { migrateToLatest } from "#server/db/migrate.ts";

const config = loadConfig();
const database = openDatabase(config.databaseUrl);
const applied = await migrateToLatest(database.db);
console.log(applied.length ? `Applied migrations: ${applied.join(", ")}` : "Database is up to date.");
await database.close();
