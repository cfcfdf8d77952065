import { resetSecondFactors } from "#server/auth/second-factor-reset.ts";
import { loadConfig } from "#server/config.ts";
import { openDatabase } from "#server/db/database.ts";
import { migrateToLatest } from "#server/db/migrate.ts";
import { recordAudit } from "#server/modules/audit/audit.ts";

// npm run admin -- grant|revoke EMAIL                          (the admin role)
// npm run admin -- grant-assessor|revoke-assessor EMAIL        (the assessor role)
// npm run admin -- grant-instructor|revoke-instructor EMAIL    (the instructor role)
// A staff role taken away takes its course assignments (courseStaff) with it.
// npm run admin -- reset-factors EMAIL                         (recovery: two-factor, passkeys and sessions
//                                                               removed, audited, the owner e-mailed; decision 0054)
const COMMANDS = {
  grant: { role: "admin", staff: null, action: "role.grant", done: "is now an admin" },
  revoke: { role: "learner", staff: null, action: "role.revoke", done: "is no longer an admin" },
  "grant-assessor": { role: "assessor", staff: "assessor", action: "role.assessor.grant", done: "is now an assessor" },
  "revoke-assessor": {
    role: "learner",
    staff: "assessor",
    action: "role.assessor.revoke",
    done: "is no longer an assessor",
  },
  "grant-instructor": {
    role: "instructor",
    staff: "instructor",
    action: "role.instructor.grant",
    done: "is now an instructor",
  },
  "revoke-instructor": {
    role: "learner",
    staff: "instructor",
    action: "role.instructor.revoke",
    done: "is no longer an instructor",
  },
} as const;
/** The audit log's actor for what the operator does here: no account, named "command line". */
const COMMAND_LINE = { id: null, email: "command line" };
const isCommand = (name: string | undefined): name is keyof typeof COMMANDS => name !== undefined && name in COMMANDS;
const [command, rawEmail] = process.argv.slice(2);
if (command === "reset-factors" && rawEmail) {
  const email = rawEmail.trim().toLowerCase();
  const config = loadConfig();
  const database = openDatabase(config.databaseUrl);
  try {
    await migrateToLatest(database.db);
    const found = await database.db.selectFrom("user").select("id").where("email", "=", email).executeTakeFirst();
    if (!found) {
      console.error(`No account has the e-mail ${email}.`);
      process.exitCode = 1;
    } else {
      await database.db.transaction().execute(async (trx) => {
        await resetSecondFactors(trx, found.id, "the operator (command line)", `${config.appUrl}/profile#security`);
        await recordAudit(trx, COMMAND_LINE, "second-factors.reset", email);
      });
      console.log(`${email}: two-factor, passkeys and sessions removed; the owner is told by e-mail.`);
    }
  } finally {
    await database.close();
  }
  process.exit();
}
if (!isCommand(command) || !rawEmail) {
  console.error(
    "Usage: npm run admin -- grant|revoke|grant-assessor|revoke-assessor|grant-instructor|revoke-instructor|reset-factors EMAIL",
  );
  process.exit(2);
}
const { role, staff, action, done } = COMMANDS[command];
const revoking = command.startsWith("revoke-");
const email = rawEmail.trim().toLowerCase();
const config = loadConfig();
const database = openDatabase(config.databaseUrl);
try {
  await migrateToLatest(database.db);
  const current = await database.db
    .selectFrom("user")
    .select(["id", "role"])
    .where("email", "=", email)
    .executeTakeFirst();
  if (!current) {
    console.error(`No account has the e-mail ${email}. They need to sign up first.`);
    process.exitCode = 1;
  } else if (staff !== null && current.role === "admin") {
    // The staff-role commands never touch an admin (revoke the admin role first).
    console.error(`${email} is an admin; revoke the admin role first (npm run admin -- revoke ${email}).`);
    process.exitCode = 1;
  } else if (revoking && current.role !== staff) {
    console.error(`${email} is not an ${staff}; nothing was changed.`);
    process.exitCode = 1;
  } else {
    await database.db.transaction().execute(async (trx) => {
      await trx
        .updateTable("user")
        .set({ role, updatedAt: new Date().toISOString() })
        .where("id", "=", current.id)
        .execute();
      // Any staff role the account held before goes, with its course assignments.
      if (current.role === "assessor" || current.role === "instructor")
        await trx.deleteFrom("courseStaff").where("userId", "=", current.id).where("role", "=", current.role).execute();
      await recordAudit(trx, COMMAND_LINE, action, email);
    });
    console.log(`${email} ${done}.`);
    if (command === "revoke" && config.adminEmails.includes(email))
      console.log(`Note: ${email} is still listed in ADMIN_EMAILS, which also grants the role.`);
  }
} finally {
  await database.close();
}
