import {
  useEffect,
  useId,
  useRef,
  useState,
  type HTMLAttributes,
  type KeyboardEvent,
  type RefObject,
} from "react";
import { useDismiss } from "./useDismiss";

function menuItems(menu: HTMLElement | null): HTMLElement[] {
  return Array.from(menu?.querySelectorAll<HTMLElement>('[role^="menuitem"]') ?? []);
}

export interface MenuState {
  open: boolean;
  /** Closes the menu and gives focus back to its button (after a choice, or Escape). */
  close: () => void;
  /** The element holding the button and the menu: a press outside it closes the menu. */
  rootRef: RefObject<HTMLDivElement | null>;
  /** Spread on the menu's `<button>`. */
  buttonProps: {
    ref: RefObject<HTMLButtonElement | null>;
    type: "button";
    "aria-haspopup": "menu";
    "aria-expanded": boolean;
    "aria-controls": string | undefined;
    onClick: () => void;
    onKeyDown: (e: KeyboardEvent<HTMLButtonElement>) => void;
  };
  /** Spread on the menu (rendered only while `open`); its items are `role="menuitem…"`, `tabIndex={-1}`. */
  menuProps: {
    ref: RefObject<HTMLDivElement | null>;
    id: string;
    role: "menu";
    onKeyDown: (e: KeyboardEvent<HTMLDivElement>) => void;
  } & Pick<HTMLAttributes<HTMLDivElement>, "role">;
}

/**
 * A menu button's behaviour (WAI-ARIA menu button pattern): the button toggles the menu, and
 * Arrow Down on it opens it; on opening, focus goes to the checked item or the first; Arrow
 * keys, Home and End move between items, Escape closes and returns focus to the button, Tab
 * closes and moves on, and a press anywhere else closes it.
 */
export function useMenu(): MenuState {
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const menuId = useId();

  useEffect(() => {
    if (!open) return;
    const all = menuItems(menuRef.current);
    (all.find((el) => el.getAttribute("aria-checked") === "true") ?? all[0])?.focus();
  }, [open]);

  // Escape is the menu's own key (onMenuKeyDown), as are the arrows
  useDismiss(open, rootRef, () => setOpen(false), { escape: false });

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

  return {
    open,
    close,
    rootRef,
    buttonProps: {
      ref: buttonRef,
      type: "button",
      "aria-haspopup": "menu",
      "aria-expanded": open,
      "aria-controls": open ? menuId : undefined,
      onClick: () => setOpen((o) => !o),
      onKeyDown: (e) => {
        if (e.key === "ArrowDown" && !open) {
          e.preventDefault();
          setOpen(true);
        }
      },
    },
    menuProps: { ref: menuRef, id: menuId, role: "menu", onKeyDown: onMenuKeyDown },
  };
}
