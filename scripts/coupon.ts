import { parseArgs } from "node:util";
import { loadConfig } from "#server/config.ts";
import { openDatabase } from "#server/db/database.ts";
import { migrateToLatest } from "#server/db/migrate.ts";
import { AppError } from "#server/errors.ts";
import { createCoupon } from "#server/modules/coupons/coupons.service.ts";

const USAGE =
  "Usage: npm run coupon -- create CODE (--percent N | --amount CENTS) [--course COURSE_ID] [--expires YYYY-MM-DD] [--max N]";
const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    percent: { type: "string" },
    amount: { type: "string" },
    course: { type: "string" },
    expires: { type: "string" },
    max: { type: "string" },
  },
});
const [command, code] = positionals;
if (command !== "create" || !code) {
  console.error(USAGE);
  process.exit(2);
}
const int = (v: string | undefined, name: string) => {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v)) {
    console.error(`--${name} must be a whole number`);
    process.exit(2);
  }
  return Number(v);
};
if (values.expires && Number.isNaN(Date.parse(values.expires))) {
  console.error("--expires must be a date such as 2027-01-31");
  process.exit(2);
}
const config = loadConfig();
const database = openDatabase(config.databaseUrl);
try {
  await migrateToLatest(database.db);
  if (values.course) {
    const course = await database.db
      .selectFrom("course")
      .select("id")
      .where("id", "=", values.course)
      .executeTakeFirst();
    if (!course) throw new AppError(400, `No course has the id ${values.course}.`);
  }
  const coupon = await createCoupon(database.db, {
    code,
    percentOff: int(values.percent, "percent"),
    amountOff: int(values.amount, "amount"),
    courseId: values.course,
    expiresAt: values.expires,
    maxRedemptions: int(values.max, "max"),
  });
  const off = coupon.percentOff ? `${coupon.percentOff}% off` : `$${((coupon.amountOff ?? 0) / 100).toFixed(2)} off`;
  console.log(
    `Created coupon ${coupon.code}: ${off}${coupon.courseId ? ` ${coupon.courseId} only` : ""}${coupon.expiresAt ? `, expires ${coupon.expiresAt}` : ""}${coupon.maxRedemptions !== null ? `, at most ${coupon.maxRedemptions} uses` : ""}.`,
  );
} catch (error) {
  if (error instanceof AppError) {
    console.error(error.message);
    process.exitCode = 1;
  } else throw error;
} finally {
  await database.close();
}
