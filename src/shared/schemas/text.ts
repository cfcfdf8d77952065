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
  for (let visit = stack.pop(); visit !== undefined; visit = stack.pop()) {
    const current = visit.value;
    if (typeof current === "string") {
      if (!isPlainText(current)) return pathOf(visit);
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], key: i, parent: visit });
    } else if (current !== null && typeof current === "object") {
      for (const [key, child] of Object.entries(current)) {
        if (!isPlainText(key)) return [...pathOf(visit), key];
        stack.push({ value: child, key, parent: visit });
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

/** Letters that draw nothing (Hangul fillers, the Braille blank): they count as invisible. */
const BLANK_LETTER = /[\u115F\u1160\u3164\uFFA0\u2800]/u;
const FORMAT = /\p{Cf}|\u034F|[\u180B-\u180F]|[\uFE00-\uFE0F]/u;
const VISIBLE = /[\p{L}\p{N}\p{S}\p{P}]/u;
const SHOWN = /[\p{L}\p{M}\p{N}\p{S}]/u;
const ZERO_WIDTH_JOINERS = new Set([0x200c, 0x200d]);
const isTag = (cp: number) => cp >= 0xe0020 && cp <= 0xe007f;

/**
 * Whether text carries a character that changes how it reads without being seen: bidirectional
 * controls (U+202E turns "Alice \u202Eevil" into "Alice live"), zero-width spaces, word joiners,
 * byte-order marks, invisible operators, blank letters. The zero-width (non-)joiner is allowed between
 * two visible characters, where Persian, Indic scripts and emoji sequences need it; a variation
 * selector after a visible character (emoji style); tag characters after the black flag (England's
 * flag). Linear: one pass over the code points.
 */
export function hasHiddenCharacter(value: string): boolean {
  const cps = Array.from(value);
  for (const [i, char] of cps.entries()) {
    if (BLANK_LETTER.test(char)) return true;
    if (!FORMAT.test(char)) continue;
    const cp = char.codePointAt(0) ?? 0;
    const before = cps[i - 1] ?? "";
    const after = cps[i + 1] ?? "";
    if (ZERO_WIDTH_JOINERS.has(cp) && SHOWN.test(before) && SHOWN.test(after)) continue;
    if (cp >= 0xfe00 && cp <= 0xfe0f && SHOWN.test(before)) continue;
    const prev = before.codePointAt(0) ?? 0;
    if (isTag(cp) && (prev === 0x1f3f4 || isTag(prev))) continue;
    return true;
  }
  return false;
}

/** Whether text has at least one character that draws something (a letter, digit, symbol or punctuation). */
export function hasVisibleCharacter(value: string): boolean {
  return VISIBLE.test(value);
}

export const HIDDEN_CHARACTER_MESSAGE = "must not contain invisible or direction-changing characters";

/** One line of text a person is known by (names, a listing's name and region): no hidden characters, something visible. */
export function singleLineName(label: string, min: number, max: number) {
  return z
    .string({ error: `${label} is required` })
    .trim()
    .min(min, min === 1 ? `${label} is required` : `${label} needs at least ${min} characters`)
    .max(max, `${label} is at most ${max} characters`)
    .refine((v) => isPlainText(v) && !LINE_BREAK_OR_TAB.test(v), `${label} must be a single line of plain text`)
    .refine((v) => !hasHiddenCharacter(v), `${label} ${HIDDEN_CHARACTER_MESSAGE}`)
    .refine(hasVisibleCharacter, `${label} needs at least one visible character`);
}

const nameField = (label: string) => singleLineName(label, 1, 255);

/** The one set of rules for a person's name, wherever it is written (sign-up, profile, any other route). */
export const firstNameSchema = nameField("First name");
export const lastNameSchema = nameField("Last name");

/** Which of the learner's names comes first on certificates: given name first (the default) or family name first. */
export const NAME_ORDERS = ["given-first", "family-first"] as const;
export const nameOrderSchema = z.enum(NAME_ORDERS, {
  error: 'Name order must be "given-first" or "family-first"',
});
export type NameOrder = z.infer<typeof nameOrderSchema>;
