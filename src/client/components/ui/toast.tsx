import {
  createContext,
  lazy,
  type ReactNode,
  Suspense,
  useCallback,
  useContext,
  useEffect,
  useRef,
  useState,
} from "react";
import type { ToastItem } from "./toast-view.tsx";

export interface ToastInput {
  title: string;
  description?: string;
  variant?: "default" | "destructive";
}

const ToastContext = createContext<(toast: ToastInput) => void>(() => {});
const ToastView = lazy(() => import("./toast-view.tsx"));

/**
 * Spec: one toast at a time (a newer one replaces the older), every toast closes after 5000 ms,
 * swipe threshold 50 px. Radix pauses the timer while the toast region is hovered or holds focus
 * (WCAG 2.2.1); errors a person must act on also stay inline by their fields. Closing a toast puts
 * focus back where it was before the person moved into the toast. The region's code loads with
 * the first toast (toast-view.tsx).
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [current, setCurrent] = useState<ToastItem | null>(null);
  const [shown, setShown] = useState(false);
  const region = useRef<HTMLDivElement>(null);
  const lastFocusOutside = useRef<HTMLElement | null>(null);
  const show = useCallback((toast: ToastInput) => {
    setShown(true);
    setCurrent({ ...toast, id: Date.now() + Math.random() });
  }, []);

  useEffect(() => {
    const track = (event: FocusEvent) => {
      const target = event.target instanceof HTMLElement ? event.target : null;
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
      {children}
      {shown && (
        <Suspense fallback={null}>
          <ToastView current={current} onClose={close} regionRef={region} />
        </Suspense>
      )}
    </ToastContext.Provider>
  );
}

export function useToast() {
  return useContext(ToastContext);
}
