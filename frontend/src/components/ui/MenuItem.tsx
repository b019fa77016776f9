import type { ButtonHTMLAttributes, ReactElement } from "react";

export interface MenuItemProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, "onSelect" | "disabled"> {
  /** Chosen by click, Enter or Space; not while `disabled`. */
  onSelect: () => void;
  /** Still reachable by the arrow keys, announced as unavailable, does nothing. */
  disabled?: boolean;
}

/** One item of a menu (`useMenu`): reached by the arrow keys, not by Tab. */
export function MenuItem({ onSelect, disabled = false, className, ...rest }: MenuItemProps): ReactElement {
  return (
    <button
      type="button"
      role="menuitem"
      tabIndex={-1}
      className={className ? `menu-item ${className}` : "menu-item"}
      aria-disabled={disabled || undefined}
      onClick={() => {
        if (!disabled) onSelect();
      }}
      {...rest}
    />
  );
}
