import { sql } from "kysely";
import { RENEWAL_CLOSES_DAYS_AFTER_EXPIRY, RENEWAL_OPENS_DAYS_BEFORE_EXPIRY } from "#shared/constants.ts";
import type { CertificateLifecycle } from "#shared/schemas/certificates.ts";

const DAY_MS = 86_400_000;

/**
 * A stored instant (ISO text) as a Date, rounded up to the millisecond when the text is finer: `new
 * Date` cuts the digits off, which would read an expiry as up to a millisecond earlier than it is and
 * open its renewal window before its time. With whole milliseconds on the clock, rounding up is exact:
 * `now >= ceil(t)` is `now >= t`, and `now < ceil(t)` is `now < t`.
 */
export function instantOf(iso: string): Date {
  const date = new Date(iso);
  return /\.\d{3}0*[1-9]/.test(iso) ? new Date(date.getTime() + 1) : date;
}

/** When recertification opens (90 days before expiry) and closes (1 year after). */
export function renewalWindow(expiresAt: Date) {
  return {
    opensAt: new Date(expiresAt.getTime() - RENEWAL_OPENS_DAYS_BEFORE_EXPIRY * DAY_MS),
    closesAt: new Date(expiresAt.getTime() + RENEWAL_CLOSES_DAYS_AFTER_EXPIRY * DAY_MS),
  };
}

export interface LifecycleFacts {
  expiresAt: Date;
  revokedAt: unknown;
}

/**
 * The certificate validity rule, stated once: a certificate counts until it is revoked or its
 * expiry instant arrives. `lifecycleOf` and `certificateStatus` read a row through it, and
 * `countsNow` is the same rule as a query condition (the practitioner directory).
 */
export function isCurrent(row: LifecycleFacts, now = new Date()): boolean {
  return !row.revokedAt && row.expiresAt.getTime() > now.getTime();
}

/** `isCurrent` as a condition on the `certificate` table, for queries that filter many rows. */
export const countsNow = (now: Date) =>
  sql<boolean>`"certificate"."revokedAt" is null and "certificate"."expiresAt" > ${now.toISOString()}`;

export function lifecycleOf(row: LifecycleFacts, now = new Date()): CertificateLifecycle {
  if (!isCurrent(row, now)) return row.revokedAt ? "revoked" : "expired";
  return renewalWindow(row.expiresAt).opensAt.getTime() <= now.getTime() ? "expiring" : "valid";
}

/** Revoked (by an admin or a refund) never renews; otherwise inside the window. */
export function canRenew(row: LifecycleFacts, now = new Date()): boolean {
  if (row.revokedAt) return false;
  const { opensAt, closesAt } = renewalWindow(row.expiresAt);
  return opensAt.getTime() <= now.getTime() && now.getTime() < closesAt.getTime();
}

/** A renewal's new expiry: one validity period from the old expiry, or from now if it had lapsed. */
export function renewedExpiry(expiresAt: Date, validYears: number, now = new Date()): Date {
  const from = new Date(Math.max(expiresAt.getTime(), now.getTime()));
  from.setUTCFullYear(from.getUTCFullYear() + validYears);
  return from;
}

/** The reminder a certificate is due now: the nearest threshold it is inside, or 'expired'; null if none. */
export function dueReminderKind(expiresAt: Date, reminderDays: number[], now = new Date()): string | null {
  const left = expiresAt.getTime() - now.getTime();
  if (left <= 0) return "expired";
  const inside = reminderDays.filter((d) => left <= d * DAY_MS);
  return inside.length ? `${Math.min(...inside)}-days` : null;
}
