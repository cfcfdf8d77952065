import { useEffect, useRef } from "react";

/**
 * An action whose button is swapped for an inline form or confirmation (Revoke, Refund): focus goes
 * into what appears (the element `panelId`), back to the button (`triggerId`) when it closes, and,
 * once the action is done and its button gone, to the table cell that now shows the new state.
 * Without this, each swap drops focus to the page body.
 */
export function useInlineFocus(open: boolean, triggerId: string, panelId: string) {
  const wasOpen = useRef(open);
  useEffect(() => {
    if (open !== wasOpen.current) document.getElementById(open ? panelId : triggerId)?.focus();
    wasOpen.current = open;
  }, [open, triggerId, panelId]);

  /** Call before the action: returns what to call after it, which focuses the action's cell. */
  return function keepFocusInCell() {
    const cell = document.getElementById(panelId)?.closest("td");
    return () => {
      if (!cell?.isConnected) return;
      cell.tabIndex = -1;
      cell.focus();
    };
  };
}
