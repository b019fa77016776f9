import { useSyncExternalStore } from "react";

const query = "(prefers-color-scheme: dark)";

function subscribe(onChange: () => void): () => void {
  if (typeof window.matchMedia !== "function") return () => undefined;
  const mql = window.matchMedia(query);
  mql.addEventListener("change", onChange);
  return () => mql.removeEventListener("change", onChange);
}

function snapshot(): "dark" | "light" {
  return typeof window.matchMedia === "function" && window.matchMedia(query).matches ? "dark" : "light";
}

/** The system colour scheme, updated live when the user switches it. */
export function useColorScheme(): "dark" | "light" {
  return useSyncExternalStore(subscribe, snapshot, () => "light");
}
