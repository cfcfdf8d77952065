import { Eye, EyeOff } from "lucide-react";
import { type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, useEffect, useId, useState } from "react";
import type { FieldValues, Path, RegisterOptions, UseFormReturn } from "react-hook-form";

const inputClass =
  "h-11 w-full rounded-lg border border-slate-300 bg-white px-3 text-base text-ink placeholder:text-slate-500 focus:border-brand-600 aria-[invalid=true]:border-danger";

/**
 * The error at a field's path ("name", "address.city", "items.0.title" or "items[0].title"), as
 * react-hook-form's `get` finds it; written here so a page with a plain field (the public
 * directory) does not load react-hook-form (decision 0032).
 */
function errorAt(errors: object, name: string): unknown {
  return name
    .replace(/\[(\d+)\]/g, ".$1")
    .split(".")
    .reduce<unknown>((node, key) => (node == null ? undefined : (node as Record<string, unknown>)[key]), errors);
}

export interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  hint?: string;
  /** Id of the form's error text; set only while that error concerns this field. */
  errorId?: string;
}

function describedBy(...ids: (string | undefined)[]) {
  const joined = ids.filter(Boolean).join(" ");
  return joined || undefined;
}

/**
 * A form's current error and the fields it concerns. Showing an error moves focus to the first
 * of those fields, whose description then reads the error; `field(name)` gives a field its id
 * and, while the error concerns it, the error's id.
 */
export function useFormError<Field extends string>() {
  const baseId = useId();
  const errorId = `${baseId}-error`;
  const [error, setError] = useState<{ message: string; fields: Field[] } | null>(null);
  const fieldId = (name: Field) => `${baseId}-${name}`;

  useEffect(() => {
    const first = error?.fields[0];
    if (first) document.getElementById(`${baseId}-${first}`)?.focus();
  }, [error, baseId]);

  return {
    errorId,
    message: error?.message ?? null,
    show: (message: string, ...fields: Field[]) => setError({ message, fields }),
    clear: () => setError(null),
    field: (name: Field) => ({ id: fieldId(name), errorId: error?.fields.includes(name) ? errorId : undefined }),
  };
}

/**
 * The same wiring for a react-hook-form form (validated by a shared zod schema): its errors are the
 * form's error text, each invalid field is marked and described by it, and focus goes to the first
 * invalid field (react-hook-form's own focus on a refused submit; `show` for a server's refusal).
 * `field(name, options)` registers a field (e.g. `{ valueAsNumber: true }`) and gives it the error's id while the
 * error concerns it.
 */
export function useFormErrors<Values extends FieldValues, Output>(form: UseFormReturn<Values, unknown, Output>) {
  const errorId = `${useId()}-error`;
  const { errors } = form.formState;
  const server = errors.root?.server?.message;
  const fieldMessages = Object.entries(errors)
    .filter(([name]) => name !== "root")
    .map(([, error]) => (error as { message?: unknown } | undefined)?.message)
    .filter((message): message is string => typeof message === "string");
  return {
    errorId,
    message: server ? [server] : [...new Set(fieldMessages)],
    /** A refusal: the form's error, about these fields; focus goes to the first. */
    show(message: string, ...fields: Path<Values>[]) {
      form.setError("root.server", { type: "server", message });
      for (const [i, name] of fields.entries())
        form.setError(name, { type: "server", message }, { shouldFocus: i === 0 });
    },
    /** The error's id while it concerns this field (for a field drawn by a Controller). */
    errorIdOf: (name: Path<Values>) => (errorAt(errors, name) ? errorId : undefined),
    field: (name: Path<Values>, options?: RegisterOptions<Values, Path<Values>>) => ({
      ...form.register(name, options),
      errorId: errorAt(errors, name) ? errorId : undefined,
    }),
  };
}

/** A form's error, next to the form: announced at once, and referenced by the fields it concerns. */
export function FormError({ id, message }: { id: string; message: string | readonly string[] | null }) {
  const messages = typeof message === "string" ? [message] : (message ?? []);
  if (messages.length === 0) return null;
  const className = "rounded-lg border border-red-300 bg-red-50 p-3 text-sm font-medium text-red-900";
  if (messages.length === 1)
    return (
      <p id={id} role="alert" className={className}>
        {messages[0]}
      </p>
    );
  return (
    <div id={id} role="alert" className={className}>
      <ul className="list-disc space-y-1 pl-5">
        {messages.map((m) => (
          <li key={m}>{m}</li>
        ))}
      </ul>
    </div>
  );
}

/** A field's label above its control and its hint below; the control carries the ids. */
function FieldFrame(props: { inputId: string; label: string; hint?: string; className: string; children: ReactNode }) {
  return (
    <div className={props.className}>
      <label htmlFor={props.inputId} className="mb-1 block text-sm font-medium text-slate-800">
        {props.label}
      </label>
      {props.children}
      {props.hint && (
        <p id={`${props.inputId}-hint`} className="mt-1 text-xs text-muted">
          {props.hint}
        </p>
      )}
    </div>
  );
}

export function TextField({ label, hint, errorId, id, className = "", ...props }: FieldProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const hintId = hint ? `${inputId}-hint` : undefined;
  return (
    <FieldFrame inputId={inputId} label={label} hint={hint} className={className}>
      <input
        id={inputId}
        aria-describedby={describedBy(errorId, hintId)}
        aria-invalid={errorId ? true : undefined}
        className={inputClass}
        {...props}
      />
    </FieldFrame>
  );
}

export function PasswordField({ label, hint, errorId, id, className = "", ...props }: FieldProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const hintId = hint ? `${inputId}-hint` : undefined;
  const [visible, setVisible] = useState(false);
  return (
    <FieldFrame inputId={inputId} label={label} hint={hint} className={className}>
      <div className="relative">
        <input
          id={inputId}
          type={visible ? "text" : "password"}
          aria-describedby={describedBy(errorId, hintId)}
          aria-invalid={errorId ? true : undefined}
          className={`${inputClass} pr-12`}
          {...props}
        />
        <button
          type="button"
          onClick={() => setVisible((v) => !v)}
          aria-label={visible ? "Hide password" : "Show password"}
          aria-pressed={visible}
          className="absolute inset-y-0 right-0 flex w-11 items-center justify-center rounded-r-lg text-slate-600 hover:text-ink"
        >
          {visible ? <EyeOff aria-hidden="true" size={18} /> : <Eye aria-hidden="true" size={18} />}
        </button>
      </div>
    </FieldFrame>
  );
}

/** A labelled select that, like TextField, is marked invalid and described by the form's error while it concerns it. */
export function SelectField({
  label,
  errorId,
  id,
  className = "",
  ...props
}: SelectHTMLAttributes<HTMLSelectElement> & { label: string; errorId?: string }) {
  const autoId = useId();
  const selectId = id ?? autoId;
  return (
    <FieldFrame inputId={selectId} label={label} className={className}>
      <select
        id={selectId}
        aria-describedby={errorId}
        aria-invalid={errorId ? true : undefined}
        className={inputClass}
        {...props}
      />
    </FieldFrame>
  );
}
