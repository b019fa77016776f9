import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactElement } from "react";
import { Dialog } from "@/components/ui/Dialog";
import type { Workspace } from "../api";
import { disambiguators } from "../workspaceLabels";
import { CreateWorkspaceForm } from "./CreateWorkspaceForm";
import "../workspaces.css";

export interface WorkspaceSwitcherProps {
  /** The user's workspaces; undefined while they load. */
  workspaces: Workspace[] | undefined;
  current: Workspace | undefined;
  onPick: (workspaceId: string) => void;
}

function menuItems(menu: HTMLElement | null): HTMLElement[] {
  return Array.from(menu?.querySelectorAll<HTMLElement>('[role^="menuitem"]') ?? []);
}

/** How a workspace is read out: its name, and the short id when another has the same name. */
function spokenName(w: Workspace, shortId: string | undefined): string {
  return shortId ? `${w.name} (${shortId})` : w.name;
}

/**
 * The header's workspace menu: the current workspace on a button; the menu lists every workspace
 * (a short id, dimmed, tells apart those that share a name) and ends with "New workspace", which
 * opens the create form in a dialog. Arrow keys, Home and End move in the menu, Escape closes it.
 */
export function WorkspaceSwitcher({ workspaces, current, onPick }: WorkspaceSwitcherProps): ReactElement {
  const [open, setOpen] = useState(false);
  const [creating, setCreating] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const shortIds = disambiguators(workspaces ?? []);
  const currentShort = current ? shortIds.get(current.id) : undefined;

  // On opening, focus goes to the current workspace (or the first item).
  useEffect(() => {
    if (!open) return;
    const all = menuItems(menuRef.current);
    (all.find((el) => el.getAttribute("aria-checked") === "true") ?? all[0])?.focus();
  }, [open]);

  // A press anywhere else closes the menu.
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent): void => {
      if (rootRef.current && !rootRef.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("mousedown", onDown);
    return () => document.removeEventListener("mousedown", onDown);
  }, [open]);

  const close = (): void => {
    setOpen(false);
    buttonRef.current?.focus();
  };

  const onMenuKeyDown = (e: KeyboardEvent<HTMLDivElement>): void => {
    const all = menuItems(menuRef.current);
    const at = all.indexOf(document.activeElement as HTMLElement);
    const move = (to: number): void => {
      e.preventDefault();
      all[(to + all.length) % all.length]?.focus();
    };
    if (e.key === "ArrowDown") move(at + 1);
    else if (e.key === "ArrowUp") move(at - 1);
    else if (e.key === "Home") move(0);
    else if (e.key === "End") move(all.length - 1);
    else if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      close();
    } else if (e.key === "Tab") setOpen(false);
  };

  const pick = (id: string): void => {
    close();
    if (id !== current?.id) onPick(id);
  };

  return (
    <div className="ws-switcher" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className="ws-switcher-button"
        data-testid="workspace-picker"
        data-workspace-id={current?.id ?? ""}
        aria-label={`Workspace: ${current ? spokenName(current, currentShort) : "none chosen"}`}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        disabled={!workspaces}
        onClick={() => setOpen((o) => !o)}
        onKeyDown={(e) => {
          if (e.key === "ArrowDown" && !open) {
            e.preventDefault();
            setOpen(true);
          }
        }}
      >
        <span className="ws-name">{current?.name ?? "Choose a workspace"}</span>
        {currentShort ? <span className="ws-short-id">{currentShort}</span> : null}
        <span className="ws-caret" aria-hidden="true">
          ▾
        </span>
      </button>
      {open ? (
        <div className="popover ws-menu" role="menu" id={menuId} aria-label="Workspaces" ref={menuRef} onKeyDown={onMenuKeyDown}>
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
                className="ws-menu-item"
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
          <div role="separator" className="ws-menu-separator" />
          <button
            type="button"
            role="menuitem"
            tabIndex={-1}
            className="ws-menu-item ws-menu-new"
            onClick={() => {
              close();
              setCreating(true);
            }}
          >
            <span className="ws-check" aria-hidden="true">
              +
            </span>
            <span className="ws-name">New workspace</span>
          </button>
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
