/** An API error whose message is the spec's '{status}: {body text}'. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    message: string,
  ) {
    super(message);
  }
  /** The server's `message` field, when the body is our JSON error shape. */
  get serverMessage(): string | undefined {
    try {
      const parsed = JSON.parse(this.body) as { message?: unknown };
      return typeof parsed.message === "string" ? parsed.message : undefined;
    } catch {
      return undefined;
    }
  }
}

/** The server's reason for refusing a request (its JSON `message`), or the fallback. */
export const refusal = (failure: unknown, fallback = "Please try again.") =>
  (failure instanceof ApiError && failure.serverMessage) || fallback;

export async function apiRequest<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method,
    credentials: "include",
    headers:
      body === undefined
        ? { accept: "application/json" }
        : { accept: "application/json", "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) {
    const text = await response.text();
    throw new ApiError(response.status, text, `${response.status}: ${text || response.statusText}`);
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : null) as T;
}

/** A multipart form (files): the browser sets the content type with its boundary. */
export async function apiUpload<T>(path: string, form: FormData): Promise<T> {
  const response = await fetch(path, {
    method: "POST",
    credentials: "include",
    headers: { accept: "application/json" },
    body: form,
  });
  const text = await response.text();
  if (!response.ok) throw new ApiError(response.status, text, `${response.status}: ${text || response.statusText}`);
  return (text ? JSON.parse(text) : null) as T;
}

export const api = {
  get: <T>(path: string) => apiRequest<T>("GET", path),
  post: <T>(path: string, body?: unknown) => apiRequest<T>("POST", path, body ?? {}),
  put: <T>(path: string, body?: unknown) => apiRequest<T>("PUT", path, body ?? {}),
};
