import { useEffect, useRef } from "react";

/**
 * Keyboard shortcuts, as Grafana's users know them: a key (`?`) or a sequence of two keys
 * pressed one after the other (`g d`, `t left`). Arrow keys are written `left`, `right`, `up`,
 * `down`. The list below is what the help (`?`) shows; each page binds its own part with
 * `useShortcuts`.
 */
export const SHORTCUTS: { section: string; items: { keys: string; does: string }[] }[] = [
  {
    section: "Anywhere",
    items: [
      { keys: "?", does: "Show these shortcuts" },
      { keys: "g e", does: "Go to Explore" },
      { keys: "g d", does: "Go to Dashboards" },
      { keys: "g b", does: "Go to Benchmarks" },
      { keys: "g s", does: "Go to Settings" },
      { keys: "g a", does: "Go to your account" },
    ],
  },
  {
    section: "Time range (Explore, dashboards, audit log)",
    items: [
      { keys: "t left", does: "Move the time range back by half its length" },
      { keys: "t right", does: "Move the time range forward by half its length" },
      { keys: "t z", does: "Zoom out: twice as long a time range" },
    ],
  },
  {
    section: "Dashboard",
    items: [
      { keys: "d r", does: "Refresh every panel" },
      { keys: "v", does: "Show the panel with the focus (or under the pointer) alone; again to go back" },
      { keys: "e", does: "Edit that panel (or the one shown alone), if your role may" },
      { keys: "Escape", does: "Back to the dashboard from a panel shown alone" },
    ],
  },
];

/** How long the second key of a sequence may wait for, in ms. */
const SEQUENCE_MS = 1_500;

const NAMES: Record<string, string> = { ArrowLeft: "left", ArrowRight: "right", ArrowUp: "up", ArrowDown: "down" };

/** Whether a key press belongs to what has focus: a field, the query editor, a menu, an open dialog. */
function typingOrElsewhere(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target.closest("input, textarea, select, .cm-editor, [role='menu'], [aria-modal='true']")) return true;
  return false;
}

/**
 * Calls `bindings[keys]` when those keys are pressed, outside fields and dialogs, without
 * Ctrl, Alt or Meta. `keys` is one key (`?`) or two separated by a space (`g d`).
 */
export function useShortcuts(bindings: Record<string, () => void>, enabled = true): void {
  const ref = useRef(bindings);
  ref.current = bindings;
  useEffect(() => {
    if (!enabled) return;
    let pending = "";
    let pendingAt = 0;
    const onKey = (e: KeyboardEvent): void => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || typingOrElsewhere(e.target)) return;
      const key = NAMES[e.key] ?? (e.key.length === 1 ? e.key.toLowerCase() : "");
      if (!key) return;
      const all = ref.current;
      const sequence = pending && e.timeStamp - pendingAt <= SEQUENCE_MS ? `${pending} ${key}` : "";
      pending = "";
      const run = (sequence && all[sequence]) || all[e.key === "?" ? "?" : key];
      if (run) {
        e.preventDefault();
        run();
        return;
      }
      if (Object.keys(all).some((k) => k.startsWith(`${key} `))) {
        pending = key;
        pendingAt = e.timeStamp;
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [enabled]);
}
