import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { Kysely, Updateable } from "kysely";
import { isDatabaseUnavailable } from "../db/database.ts";
import type { DB, OutboxEmailTable } from "../db/schema.ts";
import type { Mailer } from "./mailer.ts";
import {
  type EmailData,
  type EmailSite,
  type EmailTemplateName,
  type RenderedEmail,
  renderEmail,
} from "./render-email.ts";
import { templateByName } from "./templates/index.ts";

/**
 * The outbox (docs/decisions/0050): every message the academy sends is a row, written with the
 * caller's transaction, so the message goes out exactly when the change that causes it commits, and
 * is sent by the `email-outbox` job (attempts counted, exponential back-off, "failed" with the reason
 * after the limit). Nothing else hands mail to the mailer.
 */

export interface EmailMessage<Name extends EmailTemplateName> {
  to: string;
  template: Name;
  data: EmailData<Name>;
  /** The account the message is about: an erasure removes its messages. */
  userId?: string | null;
  /** An opt-out topic (emailOptOut): skipped when the holder unsubscribed before it went out. */
  topic?: string;
  /** One message per key, whichever path queues it first (e.g. `receipt:{orderId}:payment`). */
  key?: string;
  /** The link the message carries, logged when mail goes to the outbox folder. */
  link?: string;
}

export type OutboxStatus = OutboxEmailTable["status"];

/** Attempts before a message is "failed"; a permanent refusal (SMTP 5xx) fails it at once. */
export const OUTBOX_MAX_ATTEMPTS = 6;
/** Wait after the first failed attempt; it doubles with each later one (1, 2, 4, 8, 16 minutes). */
export const OUTBOX_BACKOFF_BASE_MS = 60_000;
/** A claim older than this is taken to have died with its process; the message is sent again. */
export const OUTBOX_CLAIM_MS = 5 * 60_000;
/** Rows looked at per page; a turn pages on while rows are due (up to OUTBOX_TURN_MS). */
export const OUTBOX_PAGE = 50;
const OUTBOX_TURN_MS = 20_000;
/** Messages handed to the transport at once, so one slow or refused address does not hold up the rest. */
const PARALLEL_SENDS = 4;

/**
 * Queues one message inside the caller's transaction (or on its own, with the database):
 * `await enqueueEmail(trx, { to: user.email, template: "receipt", data, userId: user.id })`.
 * Returns false when a message with the same key is already queued or sent.
 */
export async function enqueueEmail<Name extends EmailTemplateName>(
  db: Kysely<DB>,
  message: EmailMessage<Name>,
  now = new Date(),
): Promise<boolean> {
  const at = now.toISOString();
  const inserted = await db
    .insertInto("outboxEmail")
    .values({
      id: randomUUID(),
      key: message.key ?? null,
      toAddress: message.to,
      userId: message.userId ?? null,
      template: message.template,
      data: JSON.stringify(message.data),
      link: message.link ?? null,
      topic: message.topic ?? null,
      status: "queued",
      nextAttemptAt: at,
      lastError: null,
      createdAt: at,
      sentAt: null,
    })
    .onConflict((oc) => oc.column("key").doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Waits before each new try of a message queued after its answer: 0.25 s doubling, about 30 s in all. */
const AFTER_ANSWER_WAITS_MS = [250, 500, 1000, 2000, 4000, 8000, 16000];

/**
 * For a message queued after its request was answered (Better Auth's mail runs in the background):
 * a database that is briefly away (a failover, terminated connections) is waited out, about 30 s,
 * instead of losing a message whose request was already told it succeeded.
 */
export async function enqueueEmailAfterAnswer<Name extends EmailTemplateName>(
  db: Kysely<DB>,
  message: EmailMessage<Name>,
): Promise<boolean> {
  for (const wait of AFTER_ANSWER_WAITS_MS) {
    try {
      return await enqueueEmail(db, message);
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      await sleep(wait);
    }
  }
  return enqueueEmail(db, message);
}

export interface OutboxDeps {
  db: Kysely<DB>;
  mailer: Mailer;
  log: { warn(obj: object, msg: string): void };
}

export interface OutboxTurn {
  sent: number;
  retrying: number;
  failed: number;
  skipped: number;
}

type OutboxRow = OutboxEmailTable & { attempts: number };

/**
 * One turn of the sender: pages through the due messages (queued and due, or claimed by a process
 * that died) in the order they fell due. Each is claimed with a guarded UPDATE, so instances
 * running at once never send one twice; a failure moves only that message back (or to "failed").
 */
export async function sendDueEmails(deps: OutboxDeps, now = Date.now()): Promise<OutboxTurn> {
  const turn: OutboxTurn = { sent: 0, retrying: 0, failed: 0, skipped: 0 };
  const started = Date.now();
  const nowIso = new Date(now).toISOString();
  for (;;) {
    const due = await deps.db
      .selectFrom("outboxEmail")
      .select("id")
      .where("status", "in", ["queued", "sending"])
      .where("nextAttemptAt", "<=", nowIso)
      .orderBy("nextAttemptAt")
      .orderBy("id")
      .limit(OUTBOX_PAGE)
      .execute();
    await inParallel(due, PARALLEL_SENDS, async ({ id }) => {
      const outcome = await sendOne(deps, id, now);
      if (outcome) turn[outcome]++;
    });
    // Every row of the page left the due set (sent, moved on, or claimed elsewhere): the next page is new.
    if (due.length < OUTBOX_PAGE || Date.now() - started > OUTBOX_TURN_MS) return turn;
  }
}

async function sendOne(deps: OutboxDeps, id: string, now: number): Promise<keyof OutboxTurn | null> {
  const { db } = deps;
  const nowIso = new Date(now).toISOString();
  const claimed = await db
    .updateTable("outboxEmail")
    .set({ status: "sending", nextAttemptAt: new Date(now + OUTBOX_CLAIM_MS).toISOString() })
    .where("id", "=", id)
    .where("status", "in", ["queued", "sending"])
    .where("nextAttemptAt", "<=", nowIso)
    .returningAll()
    .executeTakeFirst();
  if (!claimed) return null;
  const row = claimed as OutboxRow;
  const attempts = row.attempts + 1;
  if (await optedOut(db, row)) {
    await settle(db, id, { status: "skipped", lastError: `Unsubscribed from ${row.topic}.` });
    return "skipped";
  }
  try {
    if (!isTemplateName(row.template)) throw permanent(`Unknown template "${row.template}".`);
    await deps.mailer.sendEmail(row.toAddress, row.template, JSON.parse(row.data), { link: row.link ?? undefined });
    await settle(db, id, { status: "sent", attempts, sentAt: new Date().toISOString(), lastError: null });
    return "sent";
  } catch (error) {
    const reason = errorText(error);
    if (isPermanent(error) || attempts >= OUTBOX_MAX_ATTEMPTS) {
      await settle(db, id, { status: "failed", attempts, lastError: reason });
      deps.log.warn({ err: error, outboxId: id, template: row.template, attempts }, "e-mail failed");
      return "failed";
    }
    const wait = OUTBOX_BACKOFF_BASE_MS * 2 ** (attempts - 1);
    await settle(db, id, {
      status: "queued",
      attempts,
      lastError: reason,
      nextAttemptAt: new Date(now + wait).toISOString(),
    });
    deps.log.warn({ err: error, outboxId: id, template: row.template, attempts }, "e-mail not sent; will retry");
    return "retrying";
  }
}

/** Ends a claimed row's attempt; only while it is still claimed (an admin's retry meanwhile wins). */
async function settle(db: Kysely<DB>, id: string, set: Updateable<OutboxEmailTable>) {
  await db.updateTable("outboxEmail").set(set).where("id", "=", id).where("status", "=", "sending").execute();
}

async function optedOut(db: Kysely<DB>, row: OutboxRow): Promise<boolean> {
  if (!row.topic || !row.userId) return false;
  const optOut = await db
    .selectFrom("emailOptOut")
    .select("userId")
    .where("userId", "=", row.userId)
    .where("topic", "=", row.topic)
    .executeTakeFirst();
  return optOut !== undefined;
}

function isTemplateName(name: string): name is EmailTemplateName {
  return Object.hasOwn(templateByName, name);
}

class PermanentFailure extends Error {}
const permanent = (message: string) => new PermanentFailure(message);

/** A refusal that another attempt cannot change: the server's 5xx answer (e.g. 550, no such mailbox). */
function isPermanent(error: unknown): boolean {
  if (error instanceof PermanentFailure) return true;
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === "number" && code >= 500 && code < 600;
}

function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.slice(0, 1000);
}

async function inParallel<T>(items: T[], width: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
}

// The admin's Outbox page.

export interface OutboxListItem {
  id: string;
  toAddress: string;
  template: string;
  /** The message's subject line (null when its template is gone). */
  subject: string | null;
  status: OutboxStatus;
  attempts: number;
  lastError: string | null;
  createdAt: string;
  nextAttemptAt: string;
  sentAt: string | null;
}

/** Messages by status group, newest first: "queued" also lists those being sent right now. */
export async function listOutbox(
  db: Kysely<DB>,
  site: EmailSite,
  filter: { status: "queued" | "sent" | "failed"; limit: number; offset: number },
): Promise<{ items: OutboxListItem[]; total: number }> {
  const statuses: OutboxStatus[] =
    filter.status === "queued" ? ["queued", "sending"] : filter.status === "sent" ? ["sent", "skipped"] : ["failed"];
  const [items, count] = await Promise.all([
    db
      .selectFrom("outboxEmail")
      .select([
        "id",
        "toAddress",
        "template",
        "data",
        "status",
        "attempts",
        "lastError",
        "createdAt",
        "nextAttemptAt",
        "sentAt",
      ])
      .where("status", "in", statuses)
      .orderBy("createdAt", "desc")
      .orderBy("id", "desc")
      .limit(filter.limit)
      .offset(filter.offset)
      .execute(),
    db
      .selectFrom("outboxEmail")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .where("status", "in", statuses)
      .executeTakeFirstOrThrow(),
  ]);
  return {
    items: items.map(({ data, ...item }) => ({
      ...item,
      attempts: Number(item.attempts),
      subject: subjectOf(item.template, data, site),
    })),
    total: Number(count.n),
  };
}

function subjectOf(template: string, data: string, site: EmailSite): string | null {
  if (!isTemplateName(template)) return null;
  try {
    return templateByName[template].subject(JSON.parse(data), site);
  } catch {
    return null;
  }
}

/** How many messages are in each status group. */
export async function countOutbox(db: Kysely<DB>): Promise<Record<"queued" | "sent" | "failed", number>> {
  const rows = await db
    .selectFrom("outboxEmail")
    .select(["status", (eb) => eb.fn.countAll<number | string>().as("n")])
    .groupBy("status")
    .execute();
  const counts = { queued: 0, sent: 0, failed: 0 };
  for (const row of rows) {
    const group = row.status === "sending" ? "queued" : row.status === "skipped" ? "sent" : row.status;
    counts[group] += Number(row.n);
  }
  return counts;
}

/** One message with its rendered HTML and text, as it went (or will go) out. */
export async function readOutboxEmail(
  db: Kysely<DB>,
  id: string,
  site: EmailSite,
): Promise<(OutboxListItem & { rendered: RenderedEmail | null }) | undefined> {
  const row = await db.selectFrom("outboxEmail").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) return undefined;
  const rendered = isTemplateName(row.template)
    ? await renderEmail(row.template, JSON.parse(row.data), site).catch(() => null)
    : null;
  const { key: _key, data, link: _link, topic: _topic, userId: _userId, ...item } = row;
  return { ...item, attempts: Number(row.attempts), subject: subjectOf(row.template, data, site), rendered };
}

/** Puts a failed (or waiting) message back at the head of the queue with its attempts counted anew. */
export async function retryOutboxEmail(db: Kysely<DB>, id: string, now = new Date()): Promise<boolean> {
  const moved = await db
    .updateTable("outboxEmail")
    .set({ status: "queued", attempts: 0, nextAttemptAt: now.toISOString() })
    .where("id", "=", id)
    .where("status", "in", ["failed", "queued"])
    .executeTakeFirst();
  return Number(moved.numUpdatedRows) === 1;
}

/** An erasure's part (profile/account-data.ts): the account's messages, sent or not, inside its transaction. */
export async function deleteAccountEmails(trx: Kysely<DB>, userId: string, address: string): Promise<void> {
  await trx
    .deleteFrom("outboxEmail")
    .where((eb) => eb.or([eb("userId", "=", userId), eb("toAddress", "=", address)]))
    .execute();
}
