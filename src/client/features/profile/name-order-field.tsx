import { useId } from "react";
import { formatPersonName } from "#shared/format.ts";
import type { NameOrder } from "#shared/schemas/text.ts";

const OPTIONS: { value: NameOrder; label: string; example: string }[] = [
  { value: "given-first", label: "Given name first", example: "e.g. Taro Yamada" },
  { value: "family-first", label: "Family name first", example: "e.g. Yamada Taro, 山田太郎" },
];

interface NameOrderFieldProps {
  value: NameOrder;
  onChange: (value: NameOrder) => void;
  firstName: string;
  lastName: string;
  /** The first radio's id, so a form error about the order can focus it. */
  id: string;
  /** Id of the form's error text; set only while that error concerns the order. */
  errorId?: string;
}

/**
 * The order of the learner's names on certificates: native radios, so Tab enters the group at the
 * chosen option and the arrow keys change it; the preview shows the name as it will be printed.
 */
export function NameOrderField({ value, onChange, firstName, lastName, id, errorId }: NameOrderFieldProps) {
  const baseId = useId();
  const labelId = `${baseId}-legend`;
  const previewId = `${baseId}-preview`;
  const given = firstName.trim() || "Given";
  const family = lastName.trim() || "Family";
  return (
    // A div, not a fieldset: a fieldset may not take the radiogroup role, which is what carries aria-invalid.
    <div
      role="radiogroup"
      aria-labelledby={labelId}
      aria-describedby={[errorId, previewId].filter(Boolean).join(" ")}
      aria-invalid={errorId ? true : undefined}
    >
      <p id={labelId} className="mb-1 block text-sm font-medium text-slate-800">
        Name order on certificates
      </p>
      <div className="grid gap-2 sm:grid-cols-2">
        {OPTIONS.map((option, i) => (
          <label
            key={option.value}
            className="flex cursor-pointer items-start gap-3 rounded-lg border border-slate-300 p-3 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
          >
            <input
              type="radio"
              name="nameOrder"
              id={i === 0 ? id : undefined}
              value={option.value}
              checked={value === option.value}
              onChange={() => onChange(option.value)}
              className="mt-1 h-4 w-4 accent-brand-700"
            />
            <span>
              <span className="block text-sm font-medium text-ink">{option.label}</span>
              <span className="block text-xs text-muted">{option.example}</span>
            </span>
          </label>
        ))}
      </div>
      <p id={previewId} className="mt-2 text-sm text-muted">
        Printed as: <span className="font-semibold text-ink">{formatPersonName(given, family, value)}</span>
      </p>
    </div>
  );
}
