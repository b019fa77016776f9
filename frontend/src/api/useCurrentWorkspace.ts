import { useOutletContext } from "react-router";
import type { Workspace } from "./workspaces";

/** The workspace the current page belongs to (resolved and checked by AppShell). */
export function useCurrentWorkspace(): Workspace {
  return useOutletContext<Workspace>();
}
