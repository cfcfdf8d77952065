import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Better Auth turns an unexpected error (the database went away) into a bare 500. The bridge runs each
 * call inside `captureAuthFailure`, Better Auth's onAPIError hook records the error here, and the bridge
 * rethrows it to our error handler, which answers a lost database with a 503 like every other route.
 */
const failures = new AsyncLocalStorage<{ error?: unknown }>();

export async function captureAuthFailure<T>(call: () => Promise<T>): Promise<{ result: T; failure?: unknown }> {
  const holder: { error?: unknown } = {};
  const result = await failures.run(holder, call);
  return { result, failure: holder.error };
}

export function recordAuthFailure(error: unknown) {
  const holder = failures.getStore();
  if (holder && holder.error === undefined) holder.error = error;
}
