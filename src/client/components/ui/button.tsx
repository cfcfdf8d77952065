import { Slot } from "radix-ui";
import type { ButtonHTMLAttributes } from "react";

const variants = {
  // btn-primary: forced colours draw it again with system colours (styles.css).
  primary: "btn-primary bg-brand-700 text-white hover:bg-brand-800 disabled:bg-slate-400",
  secondary:
    "bg-white text-brand-800 border border-brand-700 hover:bg-brand-50 disabled:text-slate-500 disabled:border-slate-300",
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
}

export function buttonClasses(variant: keyof typeof variants = "primary", size: keyof typeof sizes = "md", extra = "") {
  return `btn inline-flex items-center justify-center gap-2 rounded-lg text-center font-semibold transition-colors disabled:cursor-not-allowed ${variants[variant]} ${sizes[size]} ${extra}`;
}

export function Button({ variant = "primary", size = "md", asChild, className = "", type, ...props }: ButtonProps) {
  const Comp = asChild ? Slot.Root : "button";
  return (
    <Comp
      className={buttonClasses(variant, size, className)}
      {...(asChild ? {} : { type: type ?? "button" })}
      {...props}
    />
  );
}
