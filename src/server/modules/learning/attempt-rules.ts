/** How many attempts a learner gets before a cooldown, and how long the cooldown lasts. */
export interface AttemptRules {
  maxAttempts: number;
  cooldownHours: number;
}

export interface Allowance {
  /** Attempts that may still be started now. */
  attemptsLeft: number;
  /** During a cooldown: when the next attempt opens. */
  nextAttemptAt: Date | null;
}

/**
 * Attempts come in rounds of `maxAttempts`; the last one of a round starts a cooldown, after which a
 * new round begins. An admin's grant adds one attempt to the current round (and ends its cooldown).
 */
export function attemptAllowance(attempts: Date[], grants: Date[], rules: AttemptRules, now: Date): Allowance {
  const cooldownMs = rules.cooldownHours * 3_600_000;
  const events = [
    ...attempts.map((at) => ({ at: at.getTime(), grant: false })),
    ...grants.map((at) => ({ at: at.getTime(), grant: true })),
  ].sort((a, b) => a.at - b.at);
  let used = 0;
  let extra = 0;
  let lockedUntil: number | null = null;
  for (const event of events) {
    if (lockedUntil !== null && event.at >= lockedUntil) {
      used = 0;
      extra = 0;
      lockedUntil = null;
    }
    if (event.grant) {
      extra++;
      if (used < rules.maxAttempts + extra) lockedUntil = null;
    } else {
      used++;
      if (used >= rules.maxAttempts + extra) lockedUntil = event.at + cooldownMs;
    }
  }
  if (lockedUntil !== null && now.getTime() >= lockedUntil)
    return { attemptsLeft: rules.maxAttempts, nextAttemptAt: null };
  if (lockedUntil !== null) return { attemptsLeft: 0, nextAttemptAt: new Date(lockedUntil) };
  return { attemptsLeft: rules.maxAttempts + extra - used, nextAttemptAt: null };
}
