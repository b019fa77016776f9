import type { ReactElement } from "react";
import { Link, NavLink, Outlet } from "react-router";
import { useCurrentUser, useLogout } from "@/api/useCurrentUser";
import { Alert } from "@/components/ui/Alert";
import { Button } from "@/components/ui/Button";
import { Spinner } from "@/components/ui/Spinner";
import { toUserMessage } from "@/lib/apiError";
import "./operator.css";

export const OPERATOR_SECTIONS = [
  { path: "overview", label: "Overview" },
  { path: "workspaces", label: "Workspaces" },
  { path: "plans", label: "Plans" },
  { path: "audit", label: "Audit log" },
];

/**
 * The Operator area (`/operator/…`): the platform's workspaces, plans, health and the operator
 * audit log, for platform operators only. Anyone else is told the page does not exist, as the
 * operator API tells them (404).
 */
export function OperatorLayout(): ReactElement {
  const me = useCurrentUser();
  const logout = useLogout();
  return (
    <div className="app">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <header className="app-header">
        <span className="brand">◉ Vigil</span>
        <span className="badge badge-accent">Operator</span>
        <nav aria-label="Operator" className="app-nav">
          {OPERATOR_SECTIONS.map((s) => (
            <NavLink key={s.path} to={`/operator/${s.path}`}>
              {s.label}
            </NavLink>
          ))}
        </nav>
        <div className="app-user">
          <Link to="/">Your workspaces</Link>
          <span className="user-email" data-testid="user-email">
            {me.data?.email ?? ""}
          </span>
          <Button size="sm" variant="ghost" onClick={() => void logout()}>
            Sign out
          </Button>
        </div>
      </header>
      <main id="main" className="app-main" tabIndex={-1}>
        {me.isPending ? (
          <Spinner label="Loading" />
        ) : me.isError ? (
          <Alert title="Could not load your account" titleAs="h1">{toUserMessage(me.error)}</Alert>
        ) : !me.data.is_operator ? (
          <Alert title="Page not found" titleAs="h1">
            There is nothing here. <Link to="/">Back to your workspaces</Link>
          </Alert>
        ) : (
          <Outlet />
        )}
      </main>
    </div>
  );
}
