import type { ButtonHTMLAttributes, ReactElement, Ref } from "react";

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  /** The `<button>` itself (React passes `ref` as a prop). */
  ref?: Ref<HTMLButtonElement>;
  variant?: "primary" | "secondary" | "danger" | "ghost";
  size?: "sm" | "md";
}

export function Button({ variant = "secondary", size = "md", className, type, ...rest }: ButtonProps): ReactElement {
  const cls = ["btn", `btn-${variant}`, size === "sm" ? "btn-sm" : "", className ?? ""].filter(Boolean).join(" ");
  return <button type={type ?? "button"} className={cls} {...rest} />;
}
