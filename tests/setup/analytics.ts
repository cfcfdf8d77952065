import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { DB } from "#server/db/schema.ts";

/** Seeding the dashboard's past days (tests/api/analytics*.test.ts): times counted from the start of today, UTC. */
export const DAY = 86_400_000;
export const today = new Date(new Date().toISOString().slice(0, 10)).getTime();
/** h o'clock UTC n days ago. */
export const D = (n: number, h = 12) => new Date(today - n * DAY + h * 3_600_000).toISOString();
/** The date (YYYY-MM-DD) n days ago. */
export const day = (n: number) => new Date(today - n * DAY).toISOString().slice(0, 10);

/** A graded attempt as grading stores it, written at a chosen time. */
export const gradedAttempt = (
  db: Kysely<DB>,
  row: { userId: string; courseId: string; moduleId: string; score: number; passed: boolean; createdAt: string },
) =>
  db
    .insertInto("quizAttempt")
    .values({ id: randomUUID(), correctCount: 0, total: 6, answers: "{}", ...row })
    .execute();
