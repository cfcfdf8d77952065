interface Log {
  error(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export interface OutageReport {
  /** A call failed: logged if it is the first failure since the last success. */
  failed(error: unknown): void;
  /** A call succeeded: ends the outage, with one line saying how many calls failed in it. */
  recovered(): void;
}

/**
 * One line when a dependency (the database, for the job queue or a LISTEN connection) stops
 * answering and one when it answers again, instead of a line per failed call: an outage of a minute
 * would otherwise write hundreds of identical errors and bury the first, which says what happened.
 */
export function reportOncePerOutage(log: Log, wentAway: string, cameBack: string): OutageReport {
  let failures = 0;
  return {
    failed(error) {
      if (failures++ === 0) log.error({ err: error }, wentAway);
    },
    recovered() {
      if (failures === 0) return;
      log.info({ failedCalls: failures }, cameBack);
      failures = 0;
    },
  };
}
