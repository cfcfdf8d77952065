import { type RefObject, useEffect } from "react";

/**
 * Keeps the height of a fixed element (the toast viewport at the bottom of the screen) free at the
 * bottom of the page while it shows something: `--toast-space` on <html> feeds the page's bottom
 * padding and `scroll-padding-bottom` (styles.css), so the end of the page can scroll above it and
 * moving focus scrolls the control clear of it. A control that already has focus when the toast
 * appears is scrolled clear at once. A focused control is never hidden (WCAG 2.4.11).
 */
export function useReservedSpace(ref: RefObject<HTMLElement | null>, variable = "--toast-space") {
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const root = document.documentElement;
    const observer = new ResizeObserver(() => {
      const height = element.childElementCount > 0 ? element.getBoundingClientRect().height : 0;
      if (height === 0) return root.style.removeProperty(variable);
      root.style.setProperty(variable, `${Math.ceil(height)}px`);
      const active = document.activeElement;
      if (!active || active === document.body || element.contains(active)) return;
      if (active.getBoundingClientRect().bottom > element.getBoundingClientRect().top)
        active.scrollIntoView({ block: "nearest" });
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
      root.style.removeProperty(variable);
    };
  }, [ref, variable]);
}
