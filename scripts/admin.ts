import { loadConfig } from "#server/config.ts";
import { openDatabase } from "#server/db/database.ts";
import { migrateToLatest } from "#server/db/migrate.ts";

// npm run admin -- grant|revoke EMAIL
const [command, rawEmail] = process.argv.slice(2);
if ((command !== "grant" && command !== "revoke") || !rawEmail) {
  console.error("Usage: npm run admin -- grant|revoke EMAIL");
  process.exit(2);
}
const email = rawEmail.trim().toLowerCase();
const config = loadConfig();
const database = openDatabase(config.databaseUrl);
try {
  await migrateToLatest(database.db);
  const result = await database.db
    .updateTable("user")
    .set({ role: command === "grant" ? "admin" : "learner", updatedAt: new Date().toISOString() })
    .where("email", "=", email)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) {
    console.error(`No account has the e-mail ${email}. They need to sign up first.`);
    process.exitCode = 1;
  } else {
    await database.db
      .insertInto("auditLog")
      .values({
        id: crypto.randomUUID(),
        actorId: null,
        actorEmail: "command line",
        action: `role.${command}`,
        target: email,
        details: "{}",
        createdAt: new Date().toISOString(),
      })
      .execute();
    console.log(command === "grant" ? `${email} is now an admin.` : `${email} is no longer an admin.`);
    if (command === "revoke" && config.adminEmails.includes(email))
      console.log(`Note: ${email} is still listed in ADMIN_EMAILS, which also grants the role.`);
  }
} finally {
  await database.close();
}
