import type { FieldError as HookFieldError } from "react-hook-form";

/** The id a field's error text has, to give the field as `errorId` while the error is there. */
export const errorIdFor = (name: string) => `studio-error-${name.replace(/[^a-zA-Z0-9-]/g, "-")}`;

/** A field's own error, right under it (the field is described by it and marked invalid). */
export function FieldErrorText({ name, error }: { name: string; error: HookFieldError | undefined }) {
  if (!error?.message) return null;
  return (
    <p id={errorIdFor(name)} className="mt-1 text-sm font-medium text-danger">
      {error.message}
    </p>
  );
}
