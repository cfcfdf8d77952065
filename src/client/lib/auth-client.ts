import { passkeyClient } from "@better-auth/passkey/client";
import { inferAdditionalFields } from "better-auth/client/plugins";
import { createAuthClient } from "better-auth/react";
import { ApiError } from "./api-client.ts";

/**
 * Better Auth's own client for its endpoints (sign-up, sign-in, sign-out, password reset), on this
 * site's origin under /api/auth, so its session cookie is the one every other call sends. Who is
 * signed in is read from GET /api/auth/user (lib/session.ts), which adds the role.
 */
export const authClient = createAuthClient({
  plugins: [
    passkeyClient(),
    inferAdditionalFields({
      user: { firstName: { type: "string", required: true }, lastName: { type: "string", required: true } },
    }),
  ],
});

interface AuthAnswer {
  error: { status: number; statusText: string; message?: string } | null;
}

/** A Better Auth call's refusal, as the ApiError every other call throws (the server's message, its status). */
export async function authCall(call: Promise<AuthAnswer>): Promise<void> {
  const { error } = await call;
  if (!error) return;
  const body = JSON.stringify({ message: error.message || error.statusText });
  throw new ApiError(error.status, body, `${error.status}: ${body}`);
}
