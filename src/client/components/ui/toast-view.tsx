import { Toast as RadixToast } from "radix-ui";
import { type RefObject, useRef } from "react";
import type { ToastInput } from "./toast.tsx";
import { useReservedSpace } from "./use-reserved-space.ts";

export interface ToastItem extends ToastInput {
  id: number;
}

/**
 * The toast region and the toast on show (Radix Toast). Its code loads with the first toast, so
 * pages that never show one do not load it (decision 0032); once there, the region stays.
 */
export default function ToastView({
  current,
  onClose,
  regionRef,
}: {
  current: ToastItem | null;
  onClose: () => void;
  regionRef: RefObject<HTMLDivElement | null>;
}) {
  const viewport = useRef<HTMLOListElement>(null);
  useReservedSpace(viewport);
  return (
    <RadixToast.Provider duration={5000} swipeThreshold={50} label="Notification">
      <div ref={regionRef}>
        {current && (
          <RadixToast.Root
            key={current.id}
            data-testid="toast"
            data-variant={current.variant ?? "default"}
            onOpenChange={(open) => !open && onClose()}
            className={`pointer-events-auto flex w-full items-start gap-3 rounded-xl border p-4 shadow-lg ${
              current.variant === "destructive"
                ? "border-red-300 bg-red-50 text-red-900"
                : "border-line bg-white text-ink"
            }`}
          >
            <div className="flex-1">
              <RadixToast.Title className="font-semibold">{current.title}</RadixToast.Title>
              {current.description && (
                <RadixToast.Description className="mt-1 text-sm">{current.description}</RadixToast.Description>
              )}
            </div>
            <RadixToast.Close aria-label="Close notification" className="rounded px-2 text-lg leading-none">
              ×
            </RadixToast.Close>
          </RadixToast.Root>
        )}
        <RadixToast.Viewport
          ref={viewport}
          className="fixed right-0 bottom-0 z-50 flex w-full max-w-sm flex-col gap-2 p-4"
        />
      </div>
    </RadixToast.Provider>
  );
}
