import type { ReactElement } from "react";
import { Navigate, Outlet, useLocation } from "react-router";
import { useToken } from "@/api/useCurrentUser";

/** Sends visitors without a session to the login page, remembering where they were going. */
export function RequireAuth(): ReactElement {
  const token = useToken();
  const location = useLocation();
  if (!token) {
    return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;
  }
  return <Outlet />;
}
