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

type Bindings = Record<string, () => void>;

// Every mounted page's bindings, read by one listener: a sequence bound by one page (`g e`,
// the app's) takes its second key before a single key bound by another (`e`, a dashboard's).
const registry = new Set<{ current: Bindings }>();
let pending = "";
let pendingAt = 0;

function onKey(e: KeyboardEvent): void {
  if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || typingOrElsewhere(e.target)) return;
  const key = NAMES[e.key] ?? (e.key.length === 1 ? e.key.toLowerCase() : "");
  if (!key) return;
  const all = [...registry].map((r) => r.current);
  const sequence = pending && e.timeStamp - pendingAt <= SEQUENCE_MS ? `${pending} ${key}` : "";
  pending = "";
  const single = e.key === "?" ? "?" : key;
  const run = (sequence && all.find((b) => b[sequence])?.[sequence]) || all.find((b) => b[single])?.[single];
  if (run) {
    e.preventDefault();
    run();
    return;
  }
  if (all.some((b) => Object.keys(b).some((k) => k.startsWith(`${key} `)))) {
    pending = key;
    pendingAt = e.timeStamp;
  }
}

/**
 * Calls `bindings[keys]` when those keys are pressed, outside fields and dialogs, without
 * Ctrl, Alt or Meta. `keys` is one key (`?`) or two separated by a space (`g d`).
 */
export function useShortcuts(bindings: Bindings, enabled = true): void {
  const ref = useRef(bindings);
  ref.current = bindings;
  useEffect(() => {
    if (!enabled) return;
    if (registry.size === 0) document.addEventListener("keydown", onKey);
    registry.add(ref);
    return () => {
      registry.delete(ref);
      if (registry.size === 0) {
        document.removeEventListener("keydown", onKey);
        pending = "";
      }
    };
  }, [enabled]);
}
