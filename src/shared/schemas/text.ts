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

interface Visit {
  value: unknown;
  key: string | number;
  parent: Visit | null;
}

function pathOf(visit: Visit): (string | number)[] {
  const path: (string | number)[] = [];
  for (let at: Visit | null = visit; at?.parent; at = at.parent) path.push(at.key);
  return path.reverse();
}

/**
 * The path of the first string (value or object key) anywhere in `value` that is not plain text,
 * or null. Iterative, so a deeply nested body cannot overflow the stack, and linear in the input's
 * size: each entry points to its parent, and a path is only built for the one string refused.
 */
export function findControlCharacter(value: unknown): (string | number)[] | null {
  const stack: Visit[] = [{ value, key: "", parent: null }];
  while (stack.length > 0) {
    const visit = stack.pop() as Visit;
    const current = visit.value;
    if (typeof current === "string") {
      if (!isPlainText(current)) return pathOf(visit);
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], key: i, parent: visit });
    } else if (current !== null && typeof current === "object") {
      for (const key of Object.keys(current)) {
        if (!isPlainText(key)) return [...pathOf(visit), key];
        stack.push({ value: (current as Record<string, unknown>)[key], key, parent: visit });
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
