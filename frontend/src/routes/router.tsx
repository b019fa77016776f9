import { createBrowserRouter, Navigate, useRouteError } from "react-router";
import type { ReactElement } from "react";
import { Alert } from "@/components/ui/Alert";
import { LoginPage } from "@/features/auth/LoginPage";
import { BenchmarkRunPage } from "@/features/benchmarks/BenchmarkRunPage";
import { BenchmarksPage } from "@/features/benchmarks/BenchmarksPage";
import { DashboardPage } from "@/features/dashboards/DashboardPage";
import { DashboardsPage } from "@/features/dashboards/DashboardsPage";
import { ExplorePage } from "@/features/explore/ExplorePage";
import { SettingsPage } from "@/features/workspace-admin/SettingsPage";
import { settingsRoutes } from "@/features/workspace-admin/settingsRoutes";
import { AcceptInvitationPage } from "@/features/workspaces/AcceptInvitationPage";
import { GetStartedPage } from "@/features/workspaces/GetStartedPage";
import { toUserMessage } from "@/lib/apiError";
import { AppShell } from "./AppShell";
import { HomeRedirect } from "./HomeRedirect";
import { RequireAuth } from "./RequireAuth";

function RouteError(): ReactElement {
  const error = useRouteError();
  return (
    <main className="center-page">
      <Alert title="This page failed to load">{toUserMessage(error)}</Alert>
      <p>
        <a href="/">Back to Vigil</a>
      </p>
    </main>
  );
}

export const router = createBrowserRouter([
  { path: "/login", element: <LoginPage />, errorElement: <RouteError /> },
  { path: "/signup", element: <LoginPage mode="signup" />, errorElement: <RouteError /> },
  { path: "/invite", element: <AcceptInvitationPage />, errorElement: <RouteError /> },
  {
    element: <RequireAuth />,
    errorElement: <RouteError />,
    children: [
      { index: true, element: <HomeRedirect /> },
      {
        path: "w/:workspaceId",
        element: <AppShell />,
        errorElement: <RouteError />,
        children: [
          { index: true, element: <Navigate to="explore" replace /> },
          { path: "explore", element: <ExplorePage /> },
          { path: "settings", element: <SettingsPage />, children: settingsRoutes },
          { path: "get-started", element: <GetStartedPage /> },
          { path: "dashboards", element: <DashboardsPage /> },
          { path: "dashboards/:dashboardId", element: <DashboardPage /> },
          { path: "benchmarks", element: <BenchmarksPage /> },
          { path: "benchmarks/:runId", element: <BenchmarkRunPage /> },
        ],
      },
      { path: "*", element: <Navigate to="/" replace /> },
    ],
  },
]);
