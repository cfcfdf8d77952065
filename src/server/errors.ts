/** The one error our services throw; the error handler turns it into `{ message }` with its status. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    /** Extra fields sent next to `message`, e.g. when a refused attempt may be retried. */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const notFound = (message = "Not found") => new AppError(404, message);
export const unauthorized = (message = "Please sign in to continue.") => new AppError(401, message);
export const forbidden = (message = "You do not have access to this.") => new AppError(403, message);
export const conflict = (message: string) => new AppError(409, message);
export const badRequest = (message: string) => new AppError(400, message);
export const tooManyAttempts = (message: string, nextAttemptAt: string) =>
  new AppError(429, message, { nextAttemptAt });

/** A thrown value's message, whatever was thrown. */
export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** A field of a thrown object (Node's `code`, Fastify's `statusCode`, the AWS SDK's `name`), when it has one. */
export function errorField(error: unknown, field: string): unknown {
  return typeof error === "object" && error !== null && field in error ? Reflect.get(error, field) : undefined;
}
