import { Button } from "#client/components/ui/button.tsx";
import type { PartState } from "./draft-part.ts";

/** A part's Save button and where its save stands, in words. */
export function PartSaveBar({
  label,
  what,
  state,
  onSave,
}: {
  label: string;
  what: string;
  state: PartState;
  onSave: () => void;
}) {
  const text =
    state.kind === "saving"
      ? "Saving…"
      : state.kind === "saved"
        ? "Saved"
        : state.kind === "failed"
          ? `Not saved: ${state.message}`
          : state.kind === "conflict"
            ? `Not saved: someone else changed ${what}. Reload the page to see their version.`
            : "";
  return (
    <div className="mt-4 flex items-center gap-3">
      <Button pending={state.kind === "saving"} onClick={onSave}>
        {label}
      </Button>
      <p
        role="status"
        className={`text-sm ${state.kind === "failed" || state.kind === "conflict" ? "text-danger" : "text-muted"}`}
      >
        {text}
      </p>
    </div>
  );
}
