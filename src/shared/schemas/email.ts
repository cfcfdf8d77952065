import { z } from "zod";

/** Longer than any real address (RFC 5321 caps a mailbox at 254); the same limit wherever an address is written. */
export const EMAIL_MAX_LENGTH = 320;

export const emailAddressSchema = z
  .email("Please enter a valid email address")
  .max(EMAIL_MAX_LENGTH, `An e-mail address is at most ${EMAIL_MAX_LENGTH} characters`);
