import createClient from "openapi-fetch";
import { isRecord } from "#shared/guards.ts";
import type { paths } from "./api-types.gen.ts";

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
      const parsed: unknown = JSON.parse(this.body);
      return isRecord(parsed) && typeof parsed.message === "string" ? parsed.message : undefined;
    } catch {
      return undefined;
    }
  }
}

/** The server's reason for refusing a request (its JSON `message`), or the fallback. */
export const refusal = (failure: unknown, fallback = "Please try again.") =>
  (failure instanceof ApiError && failure.serverMessage) || fallback;

/**
 * The API, typed from the server's OpenAPI document (api-types.gen.ts, `npm run api:types`): a
 * path, method, parameter or body the server does not declare is a type error, and each call's
 * data has the type of the route's response schema. Unwrap a call with `dataOf`:
 *
 *   dataOf(api.GET("/api/courses/{courseId}", { params: { path: { courseId } } }))
 */
export const api = createClient<paths>({ credentials: "include", headers: { accept: "application/json" } });

/**
 * Turns a refusal into an answer when it can (the staff's step-up prompt registers one,
 * components/ui/step-up-prompt.tsx, decision 0054): it gets a copy of the request, sent again if it
 * resolves a response; null leaves the refusal as it is.
 */
let answerRefusal: ((copy: Request, status: number, text: string) => Promise<Response | null>) | null = null;
export function registerRefusalHandler(handler: typeof answerRefusal) {
  answerRefusal = handler;
}

/** Each request's copy, for the refusal handler (its body is read once). */
const copies = new WeakMap<Request, Request>();

// A refusal becomes an ApiError with the server's body text, before openapi-fetch parses it.
api.use({
  onRequest({ request }) {
    if (answerRefusal && request.method !== "GET") copies.set(request, request.clone());
    return undefined;
  },
  async onResponse({ request, response }) {
    if (response.ok) return undefined;
    const text = await response.text();
    const copy = copies.get(request);
    const answer = copy && answerRefusal ? await answerRefusal(copy, response.status, text) : null;
    if (answer) return answer;
    throw new ApiError(response.status, text, `${response.status}: ${text || response.statusText}`);
  },
});

/** A call's data (errors were thrown as ApiError above). */
export async function dataOf<T>(call: Promise<{ data?: T }>): Promise<T> {
  return (await call).data as T;
}

/**
 * A multipart form (files): the browser sets the content type with its boundary. Upload routes take
 * no zod body, so their bodies are not in the document; the answer is typed by the caller.
 */
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
