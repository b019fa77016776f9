import { createBrowserRouter, Navigate, useRouteError, type LoaderFunctionArgs } from "react-router";
import type { ReactElement } from "react";
import { currentUserQuery } from "@/api/useCurrentUser";
import { dashboardQuery } from "@/api/useDashboards";
import { workspacesQuery } from "@/api/useWorkspaces";
import { Alert } from "@/components/ui/Alert";
import { Spinner } from "@/components/ui/Spinner";
import { alertingRoutes } from "@/features/alerting/alertingRoutes";
import { CompleteSignupPage } from "@/features/auth/CompleteSignupPage";
import { ForgotPasswordPage } from "@/features/auth/ForgotPasswordPage";
import { LoginPage } from "@/features/auth/LoginPage";
import { ResetPasswordPage } from "@/features/auth/ResetPasswordPage";
import { prefetchPanels } from "@/features/dashboards/panelQuery";
import { SettingsPage } from "@/features/workspace-admin/SettingsPage";
import { settingsRoutes } from "@/features/workspace-admin/settingsRoutes";
import { AcceptInvitationPage } from "@/features/workspaces/AcceptInvitationPage";
import { GetStartedPage } from "@/features/workspaces/GetStartedPage";
import { toUserMessage } from "@/lib/apiError";
import { queryClient } from "@/lib/queryClient";
import { getToken } from "@/lib/session";
import { useDocumentTitle } from "@/lib/useDocumentTitle";
import { AppShell } from "./AppShell";
import { HomeRedirect } from "./HomeRedirect";
import { NotFoundPage } from "./NotFoundPage";
import { RequireAuth } from "./RequireAuth";

function RouteError(): ReactElement {
  const error = useRouteError();
  useDocumentTitle(["Page failed to load"]);
  return (
    <main className="center-page">
      <Alert title="This page failed to load" titleAs="h1">{toUserMessage(error)}</Alert>
      <p>
        <a href="/">Back to Vigil</a>
      </p>
    </main>
  );
}

// The big pages load on first visit (code splitting): the editor (CodeMirror) only with
// Explore, the grid with dashboards, the reports with benchmarks.
const explore = async () => ({ Component: (await import("./ExploreRoute")).ExploreRoute });
const dashboards = async () => ({ Component: (await import("@/features/dashboards/DashboardsPage")).DashboardsPage });
const dashboard = async () => ({ Component: (await import("@/features/dashboards/DashboardPage")).DashboardPage });
const benchmarks = async () => ({ Component: (await import("@/features/benchmarks/BenchmarksPage")).BenchmarksPage });
const alerting = async () => ({ Component: (await import("@/features/alerting/AlertingLayout")).AlertingLayout });
const account = async () => ({ Component: (await import("@/features/auth/AccountPage")).AccountPage });
// The Operator area, for platform operators only, loads on its first visit.
const operatorLayout = async () => ({ Component: (await import("@/features/operator/OperatorLayout")).OperatorLayout });
const operatorOverview = async () => ({ Component: (await import("@/features/operator/OverviewPage")).OverviewPage });
const operatorWorkspaces = async () => ({ Component: (await import("@/features/operator/WorkspacesPage")).WorkspacesPage });
const operatorPlans = async () => ({ Component: (await import("@/features/operator/PlansPage")).PlansPage });
const operatorAudit = async () => ({ Component: (await import("@/features/operator/AuditPage")).AuditPage });
const benchmarkRun = async () => ({
  Component: (await import("@/features/benchmarks/BenchmarkRunPage")).BenchmarkRunPage,
});

// Prefetches: what a page asks the server for first is asked for as soon as the URL is known,
// while its code loads, instead of once the page renders. They never hold up the page (the
// page's own queries pick up the answers), and run only on entering the route.
function prefetchShell(): null {
  if (getToken() === null) return null; // RequireAuth sends the visitor to the login page
  void queryClient.prefetchQuery(currentUserQuery(getToken()));
  void queryClient.prefetchQuery(workspacesQuery);
  return null;
}

// A dashboard's panels are asked for as soon as the dashboard is known, before its page renders.
function prefetchDashboard({ params, request }: LoaderFunctionArgs): null {
  const { workspaceId, dashboardId } = params;
  if (workspaceId && dashboardId && getToken() !== null) {
    const search = new URL(request.url).searchParams;
    queryClient
      .fetchQuery(dashboardQuery(workspaceId, dashboardId))
      .then((d) => prefetchPanels(queryClient, workspaceId, d.spec, search))
      .catch(() => undefined); // the page shows the dashboard's own error
  }
  return null;
}

const prefetchOnEntry = (): boolean => false;

/**
 * What the window shows while a workspace page's code and first data load on the first visit
 * (the router draws the page once its loaders and code are in), instead of nothing.
 */
const loadingApp = (
  <main className="center-page">
    <Spinner label="Loading Vigil" />
  </main>
);

export const router = createBrowserRouter([
  { path: "/login", element: <LoginPage />, errorElement: <RouteError /> },
  { path: "/signup", element: <LoginPage mode="signup" />, errorElement: <RouteError /> },
  { path: "/signup/complete", element: <CompleteSignupPage />, errorElement: <RouteError /> },
  { path: "/forgot-password", element: <ForgotPasswordPage />, errorElement: <RouteError /> },
  { path: "/reset-password", element: <ResetPasswordPage />, errorElement: <RouteError /> },
  { path: "/invite", element: <AcceptInvitationPage />, errorElement: <RouteError /> },
  {
    element: <RequireAuth />,
    errorElement: <RouteError />,
    children: [
      { index: true, element: <HomeRedirect /> },
      {
        path: "w/:workspaceId",
        element: <AppShell />,
        loader: prefetchShell,
        shouldRevalidate: prefetchOnEntry,
        hydrateFallbackElement: loadingApp,
        errorElement: <RouteError />,
        children: [
          { index: true, element: <Navigate to="explore" replace /> },
          { path: "explore", lazy: explore },
          { path: "settings", element: <SettingsPage />, children: settingsRoutes },
          { path: "get-started", element: <GetStartedPage /> },
          { path: "dashboards", lazy: dashboards },
          {
            path: "dashboards/:dashboardId",
            lazy: dashboard,
            loader: prefetchDashboard,
            shouldRevalidate: prefetchOnEntry,
          },
          { path: "alerts", lazy: alerting, children: alertingRoutes },
          { path: "benchmarks", lazy: benchmarks },
          { path: "benchmarks/:runId", lazy: benchmarkRun },
          { path: "account", lazy: account },
          { path: "*", element: <NotFoundPage /> },
        ],
      },
      {
        path: "operator",
        lazy: operatorLayout,
        hydrateFallbackElement: loadingApp,
        errorElement: <RouteError />,
        children: [
          { index: true, element: <Navigate to="overview" replace /> },
          { path: "overview", lazy: operatorOverview },
          { path: "workspaces", lazy: operatorWorkspaces },
          { path: "plans", lazy: operatorPlans },
          { path: "audit", lazy: operatorAudit },
        ],
      },
      { path: "*", element: <NotFoundPage standalone /> },
    ],
  },
]);
