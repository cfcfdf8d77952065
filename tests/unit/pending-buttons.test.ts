import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * A button that turns `disabled` while its own request runs drops keyboard focus to the page body
 * (the browser blurs a disabled control). Buttons say so with `pending` instead (components/ui/button.tsx:
 * aria-disabled, presses ignored, focus kept). This holds every client file to it.
 */
const PENDING = /\b(isPending|isSubmitting|busy|pending|saving|submitting|signingIn|sending|loading)\b/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith(".tsx") ? [path] : [];
  });
}

/** Every `disabled={...}` (not aria-disabled) whose expression names a request in flight, as file:line. */
function pendingDisables(file: string, text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/(?<![\w-])disabled=\{([^}]*)\}/g)) {
    if (!PENDING.test(match[1] ?? "")) continue;
    const line = text.slice(0, match.index).split("\n").length;
    found.push(`${file}:${line}: disabled={${match[1]}}`);
  }
  return found;
}

describe("buttons keep focus while their request runs", () => {
  it("finds a pending request in disabled, and not in aria-disabled or other conditions", () => {
    expect(pendingDisables("a.tsx", "<Button disabled={save.isPending}>")).toHaveLength(1);
    expect(pendingDisables("a.tsx", "<Button\n  disabled={!token || busy}>")).toEqual([
      "a.tsx:2: disabled={!token || busy}",
    ]);
    expect(pendingDisables("a.tsx", "<Button pending={save.isPending} disabled={!eligible}>")).toEqual([]);
    expect(pendingDisables("a.tsx", "<Button aria-disabled={saving}>")).toEqual([]);
  });

  it("no client button is disabled by its own request", () => {
    const found = sources("src/client").flatMap((file) => pendingDisables(file, readFileSync(file, "utf8")));
    expect(found).toEqual([]);
  });
});
