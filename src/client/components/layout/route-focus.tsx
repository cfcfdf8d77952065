import { useEffect, useRef, useState } from "react";
import { useLocation } from "react-router";

/** How long a page may take to render its h1 (lazy code, then data) before focus is left alone. */
const WAIT_FOR_HEADING_MS = 8000;

/**
 * After a route change, focus moves to the page's h1 and the page is announced, so keyboard and
 * screen-reader users start at the new content instead of wherever the old page left them.
 * Pages render their h1 late (lazy code, then data), so the h1 is watched for, and refocused
 * when a loading heading is replaced, until the user moves focus themselves.
 */
export function RouteFocus() {
  const { pathname } = useLocation();
  const firstRender = useRef(true);
  const [announcement, setAnnouncement] = useState("");

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per route change, which the pathname marks
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    const main = document.getElementById("main");
    if (!main) return;
    const before = document.activeElement;
    let focused: HTMLElement | null = null;

    const focusHeading = () => {
      const active = document.activeElement;
      const ours = active === focused || active === before || active === document.body || active === null;
      if (!ours) return stop();
      const heading = main.querySelector<HTMLElement>("h1");
      if (!heading || heading === active) return;
      if (!heading.hasAttribute("tabindex")) heading.setAttribute("tabindex", "-1");
      heading.focus();
      focused = heading;
      setAnnouncement(heading.textContent?.trim() || document.title);
    };
    const observer = new MutationObserver(focusHeading);
    const stop = () => {
      observer.disconnect();
      clearTimeout(timer);
    };
    const timer = setTimeout(stop, WAIT_FOR_HEADING_MS);
    observer.observe(main, { childList: true, subtree: true });
    focusHeading();
    return stop;
  }, [pathname]);

  return (
    <p aria-live="polite" aria-atomic="true" className="sr-only" data-testid="route-announcer">
      {announcement}
    </p>
  );
}
