import { Slot } from "radix-ui";
import type { ButtonHTMLAttributes, MouseEvent } from "react";

const variants = {
  // btn-primary: forced colours draw it again with system colours (styles.css).
  primary: "btn-primary bg-brand-700 text-white hover:bg-brand-800 disabled:bg-slate-400 data-pending:bg-slate-600",
  secondary:
    "bg-white text-brand-800 border border-brand-700 hover:bg-brand-50 disabled:text-slate-500 disabled:border-slate-300 data-pending:text-slate-700 data-pending:border-slate-500",
  ghost: "text-slate-700 hover:bg-slate-100",
  danger: "bg-danger text-white hover:bg-red-800",
  light: "bg-white text-brand-900 hover:bg-brand-50",
} as const;
// Minimum heights, not fixed ones: with large text a label may wrap to a second line inside its button.
const sizes = {
  sm: "min-h-9 px-3 py-1.5 text-sm",
  md: "min-h-11 px-5 py-2 text-sm",
  lg: "min-h-12 px-6 py-2.5 text-base",
} as const;

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: keyof typeof variants;
  size?: keyof typeof sizes;
  /** Render the child element (a link) with button styles. */
  asChild?: boolean;
  /**
   * The request this button started is running. The button ignores presses (and, as a submit button,
   * keeps its form from being sent again) but stays enabled and focusable, marked `aria-disabled`:
   * a button that turns `disabled` while it has focus drops focus to the page body.
   */
  pending?: boolean;
}

export function buttonClasses(variant: keyof typeof variants = "primary", size: keyof typeof sizes = "md", extra = "") {
  return `btn inline-flex items-center justify-center gap-2 rounded-lg text-center font-semibold transition-colors disabled:cursor-not-allowed data-pending:cursor-wait ${variants[variant]} ${sizes[size]} ${extra}`;
}

const ignorePress = (event: MouseEvent<HTMLButtonElement>) => event.preventDefault();

export function Button({
  variant = "primary",
  size = "md",
  asChild,
  className = "",
  type,
  pending,
  onClick,
  ...props
}: ButtonProps) {
  const Comp = asChild ? Slot.Root : "button";
  return (
    <Comp
      className={buttonClasses(variant, size, className)}
      {...(asChild ? {} : { type: type ?? "button" })}
      {...props}
      aria-disabled={pending ? true : props["aria-disabled"]}
      aria-busy={pending ? true : props["aria-busy"]}
      data-pending={pending ? "" : undefined}
      onClick={pending ? ignorePress : onClick}
    />
  );
}
