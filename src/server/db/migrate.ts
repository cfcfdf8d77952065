import { type Kysely, type Migration, type MigrationProvider, Migrator } from "kysely";
import * as m001 from "./migrations/001-auth.ts";
import * as m002 from "./migrations/002-courses.ts";
import * as m003 from "./migrations/003-learning.ts";
import * as m004 from "./migrations/004-certificates.ts";
import * as m005 from "./migrations/005-buying.ts";
import * as m006 from "./migrations/006-admin.ts";
import * as m007 from "./migrations/007-money.ts";
import * as m008 from "./migrations/008-assessment.ts";
import * as m009 from "./migrations/009-scale-out.ts";
import * as m011 from "./migrations/011-site.ts";
import * as m013 from "./migrations/013-credentials.ts";
import * as m015 from "./migrations/015-certificate-reissue.ts";
import * as m016 from "./migrations/016-name-order.ts";
import * as m017 from "./migrations/017-attempt-ordinal.ts";
import * as m019receipts from "./migrations/019-receipts.ts";
import * as m020blueprint from "./migrations/020-exam-blueprint.ts";
import * as m020practical from "./migrations/020-practical.ts";
import * as m021lifecycle from "./migrations/021-certificate-lifecycle.ts";
import * as m022firstAttempts from "./migrations/022-analytics-first-attempts.ts";
import * as m022analytics from "./migrations/022-analytics-indexes.ts";
import * as m025dropJobQueue from "./migrations/025-drop-job-queue.ts";
import * as m026learnerGaps from "./migrations/026-active-learner-gaps.ts";
import * as m026analyticsRollup from "./migrations/026-analytics-rollup.ts";
import * as m027itemResponseTally from "./migrations/027-item-response-tally.ts";
import * as m030learnerMilestones from "./migrations/030-learner-milestones.ts";
import * as m031emailOutbox from "./migrations/031-email-outbox.ts";
import * as m032receiptsInTheOutbox from "./migrations/032-receipts-in-the-outbox.ts";
import * as m033accountErasure from "./migrations/033-account-erasure.ts";
import * as m034continuingEducation from "./migrations/034-continuing-education.ts";
import * as m034practicalPassRule from "./migrations/034-practical-pass-rule.ts";
import * as m035courseStaff from "./migrations/035-course-staff.ts";
import * as m036courseVersions from "./migrations/036-course-versions.ts";
import * as m037secondFactors from "./migrations/037-second-factors.ts";
import * as m039assessors from "./migrations/039-assessors.ts";
import * as m042questions from "./migrations/042-questions.ts";
import * as m044courseReview from "./migrations/044-course-review.ts";
import * as m045itemStatisticsPerVersion from "./migrations/045-item-statistics-per-version.ts";
import * as m046oneOffJobs from "./migrations/046-one-off-jobs.ts";
import * as m049passkeyOnlySignIn from "./migrations/049-passkey-only-sign-in.ts";
import * as m055staffOfUnpublishedCourses from "./migrations/055-staff-of-unpublished-courses.ts";

/** Numbered migrations, in order. Add new ones at the end; never edit a released one. */
const migrations: Record<string, Migration> = {
  "001-auth": m001,
  "002-courses": m002,
  "003-learning": m003,
  "004-certificates": m004,
  "005-buying": m005,
  "006-admin": m006,
  "007-money": m007,
  "008-assessment": m008,
  "009-scale-out": m009,
  "011-site": m011,
  "013-credentials": m013,
  "015-certificate-reissue": m015,
  "016-name-order": m016,
  "017-attempt-ordinal": m017,
  "019-receipts": m019receipts,
  "020-exam-blueprint": m020blueprint,
  "020-practical": m020practical,
  "021-certificate-lifecycle": m021lifecycle,
  "022-analytics-indexes": m022analytics,
  "022-analytics-first-attempts": m022firstAttempts,
  "025-drop-job-queue": m025dropJobQueue,
  "026-analytics-rollup": m026analyticsRollup,
  "026-active-learner-gaps": m026learnerGaps,
  "027-item-response-tally": m027itemResponseTally,
  "030-learner-milestones": m030learnerMilestones,
  "035-course-staff": m035courseStaff,
  "034-practical-pass-rule": m034practicalPassRule,
  "036-course-versions": m036courseVersions,
  "031-email-outbox": m031emailOutbox,
  "032-receipts-in-the-outbox": m032receiptsInTheOutbox,
  "034-continuing-education": m034continuingEducation,
  "039-assessors": m039assessors,
  "042-questions": m042questions,
  "044-course-review": m044courseReview,
  "045-item-statistics-per-version": m045itemStatisticsPerVersion,
  "046-one-off-jobs": m046oneOffJobs,
  "049-passkey-only-sign-in": m049passkeyOnlySignIn,
  "055-staff-of-unpublished-courses": m055staffOfUnpublishedCourses,
  "033-account-erasure": m033accountErasure,
  "037-second-factors": m037secondFactors,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/**
 * `schema` (PostgreSQL) names the schema the connection's search_path points at, so the migrator
 * looks for its own tables there and not in another schema that shares the database.
 */
function migratorFor<T>(db: Kysely<T>, options: { schema?: string }) {
  return new Migrator({
    db,
    provider,
    // Branches add migrations in parallel; a database may have applied a later number first.
    allowUnorderedMigrations: true,
    ...(options.schema ? { migrationTableSchema: options.schema } : {}),
  });
}

export async function migrateToLatest<T>(db: Kysely<T>, options: { schema?: string } = {}): Promise<string[]> {
  const migrator = migratorFor(db, options);
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}

/** Applies the migrations up to and including `name` only (tests that upgrade an older database). */
export async function migrateUpTo<T>(db: Kysely<T>, name: string, options: { schema?: string } = {}): Promise<void> {
  const { error } = await migratorFor(db, options).migrateTo(name);
  if (error) throw error instanceof Error ? error : new Error(String(error));
}

/** Names of this build's migrations the database has not applied yet. */
export async function pendingMigrations<T>(db: Kysely<T>, options: { schema?: string } = {}): Promise<string[]> {
  const infos = await migratorFor(db, options).getMigrations();
  return infos.filter((m) => !m.executedAt).map((m) => m.name);
}
