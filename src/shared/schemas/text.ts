import { z } from "zod";

/**
 * Characters no text input may carry: C0 controls other than tab, line feed and carriage return,
 * DEL and the C1 controls. NUL in particular cannot be stored by PostgreSQL at all.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** Single-line text (names) refuses line breaks and tabs as well. */
const LINE_BREAK_OR_TAB = /[\t\n\r\u2028\u2029]/;

export const CONTROL_CHARACTER_MESSAGE = "Control characters and broken Unicode are not allowed.";

/** Whether a string is free of control characters and lone surrogates (which no database stores faithfully). */
export function isPlainText(value: string): boolean {
  return !CONTROL_CHARACTER.test(value) && !LONE_SURROGATE.test(value);
}

/**
 * The path of the first string (value or object key) anywhere in `value` that is not plain text,
 * or null. Iterative, so a deeply nested body cannot overflow the stack.
 */
export function findControlCharacter(value: unknown): (string | number)[] | null {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value, path: [] }];
  while (stack.length > 0) {
    const item = stack.pop() as { value: unknown; path: (string | number)[] };
    if (typeof item.value === "string") {
      if (!isPlainText(item.value)) return item.path;
    } else if (Array.isArray(item.value)) {
      item.value.forEach((v, i) => {
        stack.push({ value: v, path: [...item.path, i] });
      });
    } else if (item.value !== null && typeof item.value === "object") {
      for (const [key, v] of Object.entries(item.value)) {
        if (!isPlainText(key)) return [...item.path, key];
        stack.push({ value: v, path: [...item.path, key] });
      }
    }
  }
  return null;
}

/** The one refinement every request input passes through before its own schema (see the server's validator). */
export const plainTextInput = z.unknown().superRefine((value, ctx) => {
  const path = findControlCharacter(value);
  if (path) ctx.addIssue({ code: "custom", message: CONTROL_CHARACTER_MESSAGE, path });
});

/** Wraps a request schema so that control characters anywhere in the input are refused first. */
export function refusingControlCharacters<T extends z.ZodType>(schema: T) {
  return plainTextInput.pipe(schema);
}

const nameField = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(255, `${label} is at most 255 characters`)
    .refine((v) => isPlainText(v) && !LINE_BREAK_OR_TAB.test(v), `${label} must be a single line of plain text`);

/** The one set of rules for a person's name, wherever it is written (sign-up, profile, any other route). */
export const firstNameSchema = nameField("First name");
export const lastNameSchema = nameField("Last name");

/** Which of the learner's names comes first on certificates: given name first (the default) or family name first. */
export const NAME_ORDERS = ["given-first", "family-first"] as const;
export const nameOrderSchema = z.enum(NAME_ORDERS, {
  error: 'Name order must be "given-first" or "family-first"',
});
export type NameOrder = z.infer<typeof nameOrderSchema>;
