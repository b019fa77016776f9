import { useState, type ReactElement } from "react";
import type { Workspace } from "@/api/workspaces";
import { Dialog } from "@/components/ui/Dialog";
import { MenuItem } from "@/components/ui/MenuItem";
import { useMenu } from "@/components/ui/useMenu";
import { disambiguators } from "../workspaceLabels";
import { CreateWorkspaceForm } from "./CreateWorkspaceForm";
import "../workspaces.css";

export interface WorkspaceSwitcherProps {
  /** The user's workspaces; undefined while they load. */
  workspaces: Workspace[] | undefined;
  current: Workspace | undefined;
  onPick: (workspaceId: string) => void;
}

/** How a workspace is read out: its name, and the short id when another has the same name. */
function spokenName(w: Workspace, shortId: string | undefined): string {
  return shortId ? `${w.name} (${shortId})` : w.name;
}

/**
 * The header's workspace menu: the current workspace on a button; the menu lists every workspace
 * (a short id, dimmed, tells apart those that share a name) and ends with "New workspace", which
 * opens the create form in a dialog. The keys are those of every menu button (`useMenu`).
 */
export function WorkspaceSwitcher({ workspaces, current, onPick }: WorkspaceSwitcherProps): ReactElement {
  const { open, close, rootRef, buttonProps, menuProps } = useMenu();
  const [creating, setCreating] = useState(false);
  const shortIds = disambiguators(workspaces ?? []);
  const currentShort = current ? shortIds.get(current.id) : undefined;

  const pick = (id: string): void => {
    close();
    if (id !== current?.id) onPick(id);
  };

  return (
    <div className="ws-switcher" ref={rootRef}>
      <button
        {...buttonProps}
        className="ws-switcher-button"
        data-testid="workspace-picker"
        data-workspace-id={current?.id ?? ""}
        aria-label={`Workspace: ${current ? spokenName(current, currentShort) : "none chosen"}`}
        disabled={!workspaces}
      >
        <span className="ws-name">{current?.name ?? "Choose a workspace"}</span>
        {currentShort ? <span className="ws-short-id">{currentShort}</span> : null}
        <span className="ws-caret" aria-hidden="true">
          ▾
        </span>
      </button>
      {open ? (
        <div {...menuProps} className="popover menu ws-menu" aria-label="Workspaces">
          {(workspaces ?? []).map((w) => {
            const shortId = shortIds.get(w.id);
            return (
              <button
                key={w.id}
                type="button"
                role="menuitemradio"
                aria-checked={w.id === current?.id}
                aria-label={`${spokenName(w, shortId)}, ${w.role}`}
                title={shortId ? `Workspace id ${w.id}` : undefined}
                tabIndex={-1}
                className="menu-item"
                onClick={() => pick(w.id)}
              >
                <span className="ws-check" aria-hidden="true">
                  {w.id === current?.id ? "✓" : ""}
                </span>
                <span className="ws-name">{w.name}</span>
                {shortId ? <span className="ws-short-id">{shortId}</span> : null}
                <span className="ws-role">{w.role}</span>
              </button>
            );
          })}
          <div role="separator" className="menu-separator" />
          <MenuItem
            className="ws-menu-new"
            onSelect={() => {
              close();
              setCreating(true);
            }}
          >
            <span className="ws-check" aria-hidden="true">
              +
            </span>
            <span className="ws-name">New workspace</span>
          </MenuItem>
        </div>
      ) : null}
      {creating ? (
        <Dialog
          title="New workspace"
          description="A workspace has its own metrics, dashboards, members, keys and limits. You will be its owner."
          onClose={() => setCreating(false)}
          testId="new-workspace-dialog"
        >
          <CreateWorkspaceForm onCreated={() => setCreating(false)} onCancel={() => setCreating(false)} />
        </Dialog>
      ) : null}
    </div>
  );
}
