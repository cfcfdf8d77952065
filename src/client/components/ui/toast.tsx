import { Toast as RadixToast } from "radix-ui";
import { createContext, type ReactNode, useCallback, useContext, useEffect, useRef, useState } from "react";
import { useReservedSpace } from "./use-reserved-space.ts";

export interface ToastInput {
  title: string;
  description?: string;
  variant?: "default" | "destructive";
}
interface ToastItem extends ToastInput {
  id: number;
}

const ToastContext = createContext<(toast: ToastInput) => void>(() => {});

/**
 * Spec: one toast at a time (a newer one replaces the older), every toast closes after 5000 ms,
 * swipe threshold 50 px. Radix pauses the timer while the toast region is hovered or holds focus
 * (WCAG 2.2.1); errors a person must act on also stay inline by their fields. Closing a toast puts
 * focus back where it was before the person moved into the toast.
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [current, setCurrent] = useState<ToastItem | null>(null);
  const region = useRef<HTMLDivElement>(null);
  const lastFocusOutside = useRef<HTMLElement | null>(null);
  const viewport = useRef<HTMLOListElement>(null);
  useReservedSpace(viewport);
  const show = useCallback((toast: ToastInput) => setCurrent({ ...toast, id: Date.now() + Math.random() }), []);

  useEffect(() => {
    const track = (event: FocusEvent) => {
      const target = event.target as HTMLElement | null;
      if (target && !region.current?.contains(target)) lastFocusOutside.current = target;
    };
    document.addEventListener("focusin", track);
    return () => document.removeEventListener("focusin", track);
  }, []);

  const close = () => {
    setCurrent(null);
    // Radix moves focus to its viewport when a focused toast closes; send it back.
    requestAnimationFrame(() => {
      const active = document.activeElement;
      const lost = !active || active === document.body || region.current?.contains(active);
      const target = lastFocusOutside.current;
      if (lost && target?.isConnected) target.focus();
    });
  };

  return (
    <ToastContext.Provider value={show}>
      <RadixToast.Provider duration={5000} swipeThreshold={50} label="Notification">
        {children}
        <div ref={region}>
          {current && (
            <RadixToast.Root
              key={current.id}
              data-testid="toast"
              data-variant={current.variant ?? "default"}
              onOpenChange={(open) => !open && close()}
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
    </ToastContext.Provider>
  );
}

export function useToast() {
  return useContext(ToastContext);
}
