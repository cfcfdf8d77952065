import { z } from "zod";

/** The admin's Outbox page (docs/decisions/0050): the messages the academy sends, by status. */
export const OUTBOX_GROUPS = ["queued", "sent", "failed"] as const;
export type OutboxGroup = (typeof OUTBOX_GROUPS)[number];

export const outboxQuerySchema = z.strictObject({
  status: z.enum(OUTBOX_GROUPS).default("queued"),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});

// Any short ID: an unknown one is 404 after the admin check, never a 400 that answers before it.
export const outboxParamsSchema = z.strictObject({ id: z.string().min(1).max(100) });

export const outboxItemSchema = z.object({
  id: z.string(),
  toAddress: z.string(),
  template: z.string(),
  subject: z.string().nullable(),
  /** queued, sending (claimed right now), sent, skipped (unsubscribed meanwhile) or failed. */
  status: z.enum(["queued", "sending", "sent", "failed", "skipped"]),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  nextAttemptAt: z.string(),
  sentAt: z.string().nullable(),
});
export type OutboxItem = z.infer<typeof outboxItemSchema>;

export const pagedOutboxSchema = z.object({
  items: z.array(outboxItemSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  counts: z.object({ queued: z.number().int(), sent: z.number().int(), failed: z.number().int() }),
});

export const outboxMessageSchema = outboxItemSchema.extend({
  /** The message as it goes out; null when its template can no longer render it. */
  html: z.string().nullable(),
  text: z.string().nullable(),
});
