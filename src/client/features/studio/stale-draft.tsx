import { useEffect, useRef } from "react";
import { Button } from "#client/components/ui/button.tsx";

export interface Difference {
  label: string;
  mine: string;
  theirs: string;
}

/**
 * A save refused because someone else saved the draft first: what differs between their draft and
 * what this author was saving, and the author's choice. Nothing typed is dropped until they choose.
 */
export function StaleDraftNotice(props: {
  revision: number;
  differences: Difference[];
  busy?: boolean;
  onKeepMine: () => void;
  onTakeTheirs: () => void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section
      aria-labelledby="stale-draft-title"
      className="rounded-lg border-2 border-amber-500 bg-amber-50 p-4 text-sm text-amber-950"
    >
      <h2 id="stale-draft-title" ref={heading} tabIndex={-1} className="text-base font-semibold">
        Someone else saved this draft while you were editing (revision {props.revision})
      </h2>
      {props.differences.length === 0 ? (
        <p className="mt-2">Their save did not change what you are editing here: saving yours keeps both.</p>
      ) : (
        <>
          <p className="mt-2">Where their draft and yours differ:</p>
          <dl className="mt-2 space-y-2">
            {props.differences.map((d) => (
              <div key={d.label}>
                <dt className="font-semibold">{d.label}</dt>
                <dd className="break-words">
                  Theirs: {d.theirs || "(empty)"}
                  <br />
                  Yours: {d.mine || "(empty)"}
                </dd>
              </div>
            ))}
          </dl>
        </>
      )}
      <div className="mt-3 flex flex-wrap gap-2">
        <Button type="button" aria-disabled={props.busy} onClick={props.busy ? undefined : props.onKeepMine}>
          Save mine over theirs
        </Button>
        <Button
          type="button"
          variant="secondary"
          aria-disabled={props.busy}
          onClick={props.busy ? undefined : props.onTakeTheirs}
        >
          Use theirs and drop mine
        </Button>
      </div>
    </section>
  );
}
