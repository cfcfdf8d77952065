interface Log {
  error(obj: object, msg: string): void;
}

/**
 * Work that runs after a response has gone (mail from Better Auth, reset requests): failures are
 * logged, and shutdown waits for what is still running, so no accepted request loses its mail.
 */
export interface Background {
  track(work: Promise<unknown>, what?: string): void;
  /** Resolves once nothing tracked is running (tests use it instead of waiting an arbitrary time). */
  idle(): Promise<void>;
}

export function createBackground(log: Log): Background {
  const running = new Set<Promise<unknown>>();
  return {
    track(work, what = "background task") {
      const tracked = work.catch((error) => log.error({ err: error }, `${what} failed`));
      running.add(tracked);
      void tracked.finally(() => running.delete(tracked));
    },
    async idle() {
      while (running.size) await Promise.allSettled([...running]);
    },
  };
}
