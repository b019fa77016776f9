import type { RouteObject } from "react-router";

/*
 * The pages under `/w/:workspaceId/alerts`, each loaded on its first visit. The notifications
 * Vigil sends link to `alerts/events/<id>` and `alerts/monitors/<id>`: keep those paths.
 */
export const alertingRoutes: RouteObject[] = [
  { index: true, lazy: async () => ({ Component: (await import("./ActiveAlertsPage")).ActiveAlertsPage }) },
  { path: "monitors", lazy: async () => ({ Component: (await import("./MonitorsPage")).MonitorsPage }) },
  { path: "monitors/new", lazy: async () => ({ Component: (await import("./MonitorEditorPage")).MonitorEditorPage }) },
  { path: "monitors/:monitorId", lazy: async () => ({ Component: (await import("./MonitorPage")).MonitorPage }) },
  {
    path: "monitors/:monitorId/edit",
    lazy: async () => ({ Component: (await import("./MonitorEditorPage")).MonitorEditorPage }),
  },
  { path: "events", lazy: async () => ({ Component: (await import("./EventsPage")).EventsPage }) },
  { path: "events/:eventId", lazy: async () => ({ Component: (await import("./EventPage")).EventPage }) },
  { path: "silences", lazy: async () => ({ Component: (await import("./SilencesPage")).SilencesPage }) },
  { path: "channels", lazy: async () => ({ Component: (await import("./ChannelsPage")).ChannelsPage }) },
  { path: "recording-rules", lazy: async () => ({ Component: (await import("./RecordingRulesPage")).RecordingRulesPage }) },
];
