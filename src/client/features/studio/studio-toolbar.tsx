import { type KeyboardEvent, type ReactNode, useRef, useState } from "react";

export interface ToolbarButton {
  id: string;
  label: string;
  icon: ReactNode;
  /** A toggle's state (aria-pressed); undefined for an action. */
  pressed?: boolean;
  disabled?: boolean;
  onPress: () => void;
}

/**
 * A toolbar as the ARIA pattern has it: one tab stop, arrow keys (and Home, End) between its
 * buttons, each button named; toggles say whether they are on.
 */
export function Toolbar({ label, buttons, controls }: { label: string; buttons: ToolbarButton[]; controls?: string }) {
  const [active, setActive] = useState(0);
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const move = (event: KeyboardEvent) => {
    const last = buttons.length - 1;
    const next =
      event.key === "ArrowRight"
        ? active === last
          ? 0
          : active + 1
        : event.key === "ArrowLeft"
          ? active === 0
            ? last
            : active - 1
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? last
              : null;
    if (next === null) return;
    event.preventDefault();
    setActive(next);
    refs.current[next]?.focus();
  };
  return (
    <div
      role="toolbar"
      aria-label={label}
      aria-controls={controls}
      tabIndex={-1}
      onKeyDown={move}
      className="flex flex-wrap gap-1 rounded-t-lg border border-b-0 border-slate-300 bg-slate-50 p-1"
    >
      {buttons.map((b, i) => (
        <button
          key={b.id}
          ref={(el) => {
            refs.current[i] = el;
          }}
          type="button"
          tabIndex={i === active ? 0 : -1}
          aria-label={b.label}
          title={b.label}
          aria-pressed={b.pressed}
          aria-disabled={b.disabled || undefined}
          onFocus={() => setActive(i)}
          onClick={() => {
            if (!b.disabled) b.onPress();
          }}
          className="inline-flex min-h-9 min-w-9 items-center justify-center rounded-md px-2 text-sm font-semibold text-slate-800 hover:bg-slate-200 aria-disabled:text-slate-400 aria-pressed:bg-brand-700 aria-pressed:text-white"
        >
          {b.icon}
        </button>
      ))}
    </div>
  );
}
