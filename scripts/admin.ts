import { loadConfig } from "#server/config.ts";
import { openDatabase } from "#server/db/database.ts";
import { migrateToLatest } from "#server/db/migrate.ts";

// npm run admin -- grant|revoke EMAIL               (the admin role)
// npm run admin -- grant-assessor|revoke-assessor EMAIL  (the assessor role)
const COMMANDS = {
  grant: { role: "admin", action: "role.grant", done: "is now an admin" },
  revoke: { role: "learner", action: "role.revoke", done: "is no longer an admin" },
  "grant-assessor": { role: "assessor", action: "role.assessor.grant", done: "is now an assessor" },
  "revoke-assessor": { role: "learner", action: "role.assessor.revoke", done: "is no longer an assessor" },
} as const;
const isCommand = (name: string | undefined): name is keyof typeof COMMANDS => name !== undefined && name in COMMANDS;
const [command, rawEmail] = process.argv.slice(2);
if (!isCommand(command) || !rawEmail) {
  console.error("Usage: npm run admin -- grant|revoke|grant-assessor|revoke-assessor EMAIL");
  process.exit(2);
}
const { role, action, done } = COMMANDS[command];
const forAssessor = command.endsWith("-assessor");
const email = rawEmail.trim().toLowerCase();
const config = loadConfig();
const database = openDatabase(config.databaseUrl);
try {
  await migrateToLatest(database.db);
  const current = await database.db.selectFrom("user").select("role").where("email", "=", email).executeTakeFirst();
  const result = await database.db
    .updateTable("user")
    .set({ role, updatedAt: new Date().toISOString() })
    .where("email", "=", email)
    // The assessor commands never touch an admin (revoke the admin role first).
    .$if(forAssessor, (qb) => qb.where("role", "!=", "admin"))
    .executeTakeFirst();
  if (!current) {
    console.error(`No account has the e-mail ${email}. They need to sign up first.`);
    process.exitCode = 1;
  } else if (Number(result.numUpdatedRows) === 0) {
    console.error(`${email} is an admin; revoke the admin role first (npm run admin -- revoke ${email}).`);
    process.exitCode = 1;
  } else {
    await database.db
      .insertInto("auditLog")
      .values({
        id: crypto.randomUUID(),
        actorId: null,
        actorEmail: "command line",
        action,
        target: email,
        details: "{}",
        createdAt: new Date().toISOString(),
      })
      .execute();
    console.log(`${email} ${done}.`);
    if (command === "revoke" && config.adminEmails.includes(email))
      console.log(`Note: ${email} is still listed in ADMIN_EMAILS, which also grants the role.`);
  }
} finally {
  await database.close();
}
