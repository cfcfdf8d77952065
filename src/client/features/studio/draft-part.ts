import { useState } from "react";
import { api, dataOf, refusal } from "#client/lib/api-client.ts";
import type { CourseDocument, Draft } from "#shared/schemas/studio.ts";
import { staleDraftOf, useKeepDraft } from "./api.ts";

export type PartState =
  | { kind: "idle" }
  | { kind: "saving" }
  | { kind: "saved" }
  | { kind: "failed"; message: string }
  | { kind: "conflict"; current: Draft };

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Saves one part of the draft (a bank, the exam, the practical) inside the whole document, on the
 * revision it was read from. A 409 whose copy of this part is unchanged (someone saved another part)
 * is saved again on top of theirs; otherwise the author is told and chooses.
 */
export function useDraftPart<T>(
  pick: (document: CourseDocument) => T,
  put: (document: CourseDocument, part: T) => CourseDocument,
) {
  const keep = useKeepDraft();
  const [state, setState] = useState<PartState>({ kind: "idle" });
  const send = async (draft: Draft, part: T) =>
    dataOf(
      api.PUT("/api/studio/courses/{courseId}/draft", {
        params: { path: { courseId: draft.courseId } },
        body: { baseRevision: draft.revision, document: put(draft.document, part) },
      }),
    );
  const save = async (draft: Draft, base: T, part: T): Promise<Draft | null> => {
    setState({ kind: "saving" });
    try {
      const saved = await send(draft, part);
      keep(saved);
      setState({ kind: "saved" });
      return saved;
    } catch (error) {
      const current = staleDraftOf(error);
      if (current && same(pick(current.document), base)) return save(current, base, part);
      if (current) {
        setState({ kind: "conflict", current });
        return null;
      }
      setState({
        kind: "failed",
        message: refusal(error, "The server could not be reached: your changes are still here. Try again."),
      });
      return null;
    }
  };
  return { state, save, reset: () => setState({ kind: "idle" }) };
}
