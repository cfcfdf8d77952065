import { dictionary } from "@zxcvbn-ts/language-common";

// zxcvbn's list is ordered by how often each password appears in breach corpora.
const MOST_COMMON = 10_000;
let list: Set<string> | undefined;

export function isCommonPassword(password: string): boolean {
  list ??= new Set((dictionary["passwords-common"] as string[]).slice(0, MOST_COMMON));
  return list.has(password.toLowerCase());
}

export const COMMON_PASSWORD_MESSAGE =
  "This password is one of the most common passwords and easy to guess. Please choose a different one.";
