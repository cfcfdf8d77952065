import createClient from "openapi-fetch";
import { isRecord } from "#shared/guards.ts";
import { STEP_UP_REQUIRED } from "#shared/schemas/auth.ts";
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
 * Asks the person to confirm a second factor again (components/ui/step-up-prompt.tsx registers it);
 * resolves true once a code was accepted, false when they cancelled.
 */
let askForStepUp: (() => Promise<boolean>) | null = null;
export function registerStepUpPrompt(prompt: (() => Promise<boolean>) | null) {
  askForStepUp = prompt;
}

/** The server's `code` of a refusal (STEP_UP_REQUIRED, ...), when it has one. */
function codeOf(text: string): unknown {
  try {
    const parsed: unknown = JSON.parse(text);
    return isRecord(parsed) ? parsed.code : undefined;
  } catch {
    return undefined;
  }
}

/** Each request's copy, sent again after a re-confirmation (its body is read once). */
const copies = new WeakMap<Request, Request>();

// A refusal becomes an ApiError with the server's body text, before openapi-fetch parses it. An action
// that needs a fresh second factor (403 STEP_UP_REQUIRED, decision 0054) prompts for it, then is sent
// once more.
api.use({
  onRequest({ request }) {
    if (request.method !== "GET") copies.set(request, request.clone());
    return undefined;
  },
  async onResponse({ request, response }) {
    if (response.ok) return undefined;
    const text = await response.text();
    const copy = copies.get(request);
    if (
      response.status === 403 &&
      copy &&
      askForStepUp &&
      codeOf(text) === STEP_UP_REQUIRED &&
      (await askForStepUp())
    ) {
      const again = await fetch(copy);
      if (again.ok) return again;
      const retryText = await again.text();
      throw new ApiError(again.status, retryText, `${again.status}: ${retryText || again.statusText}`);
    }
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
