import type { AlertEvent } from "@/api/alertEvents";
import {
  alertsReadActive,
  alertsReadEvent,
  alertsReadNotifications,
  alertsReadSummary,
  channelsCreateChannel,
  channelsDeleteChannel,
  channelsReadChannels,
  channelsTestChannel,
  channelsUpdateChannel,
  monitorsCreateMonitor,
  monitorsDeleteMonitor,
  monitorsPreviewMonitor,
  monitorsReadGroups,
  monitorsReadMonitor,
  monitorsReadMonitors,
  monitorsUpdateMonitor,
  recordingRulesCreateRule,
  recordingRulesDeleteRule,
  recordingRulesReadRules,
  recordingRulesUpdateRule,
  silencesCreateSilence,
  silencesDeleteSilence,
  silencesReadSilences,
  silencesUpdateSilence,
} from "@/client/sdk.gen";
import type {
  ActiveAlertsPublic,
  AlertEventDetail,
  AlertsReadNotificationsData,
  AlertSummary,
  ChannelCreate,
  ChannelPublic,
  ChannelsPublic,
  ChannelTestResult,
  ChannelUpdate,
  Condition,
  GroupPublic,
  GroupsPublic,
  MatcherModel,
  MonitorCreate,
  MonitorPublic,
  MonitorsPublic,
  MonitorUpdate,
  NotificationPublic,
  NotificationsPublic,
  PreviewPublic,
  PreviewRequest,
  RecordingRuleCreate,
  RecordingRulePublic,
  RecordingRulesPublic,
  RecordingRuleUpdate,
  SilenceCreate,
  SilencePublic,
  SilencesPublic,
  SilenceUpdate,
} from "@/client/types.gen";
import "@/lib/apiClient";


/*
 * The alerting API (monitors, alerts, silences, channels, recording rules) over the generated
 * client: one function per call, every error thrown as an ApiError (lib/apiClient.ts).
 */

// events are shared with the panels that mark them on their charts (api/alertEvents.ts)
export { listEvents, type AlertEvent, type EventsQuery, type Severity } from "@/api/alertEvents";

export type Monitor = MonitorPublic;
export type ActiveAlert = ActiveAlertsPublic["data"][number];
export type MonitorGroup = GroupPublic;
export type Notification = NotificationPublic;
export type Silence = SilencePublic;
export type Channel = ChannelPublic;
export type RecordingRule = RecordingRulePublic;
export type Preview = PreviewPublic;
export type ConditionOp = Condition["op"];
export type Reducer = NonNullable<MonitorCreate["reducer"]>;
export type Language = NonNullable<MonitorCreate["language"]>;
export type MonitorStatus = MonitorPublic["status"];
export type EventKind = AlertEvent["kind"];
export type NotificationStatus = NotificationPublic["status"];
export type SilenceState = SilencePublic["state"];
export type Matcher = MatcherModel;
export type NotificationsQuery = NonNullable<AlertsReadNotificationsData["query"]>;
export type {
  AlertEventDetail,
  AlertSummary,
  ChannelCreate,
  ChannelTestResult,
  ChannelUpdate,
  Condition,
  MonitorCreate,
  MonitorUpdate,
  PreviewRequest,
  RecordingRuleCreate,
  RecordingRuleUpdate,
  SilenceCreate,
  SilenceUpdate,
};

const ws = (workspaceId: string) => ({ workspace_id: workspaceId });

// --- monitors -------------------------------------------------------------------------------

export async function listMonitors(workspaceId: string, signal?: AbortSignal): Promise<MonitorsPublic> {
  return (await monitorsReadMonitors({ path: ws(workspaceId), signal, throwOnError: true })).data;
}

export async function readMonitor(workspaceId: string, monitorId: string, signal?: AbortSignal): Promise<Monitor> {
  return (
    await monitorsReadMonitor({ path: { ...ws(workspaceId), monitor_id: monitorId }, signal, throwOnError: true })
  ).data;
}

export async function readGroups(workspaceId: string, monitorId: string, signal?: AbortSignal): Promise<GroupsPublic> {
  return (await monitorsReadGroups({ path: { ...ws(workspaceId), monitor_id: monitorId }, signal, throwOnError: true }))
    .data;
}

export async function createMonitor(workspaceId: string, body: MonitorCreate): Promise<Monitor> {
  return (await monitorsCreateMonitor({ path: ws(workspaceId), body, throwOnError: true })).data;
}

export async function updateMonitor(workspaceId: string, monitorId: string, body: MonitorUpdate): Promise<Monitor> {
  return (
    await monitorsUpdateMonitor({ path: { ...ws(workspaceId), monitor_id: monitorId }, body, throwOnError: true })
  ).data;
}

export async function deleteMonitor(workspaceId: string, monitorId: string): Promise<void> {
  await monitorsDeleteMonitor({ path: { ...ws(workspaceId), monitor_id: monitorId }, throwOnError: true });
}

export async function previewMonitor(workspaceId: string, body: PreviewRequest, signal?: AbortSignal): Promise<Preview> {
  return (await monitorsPreviewMonitor({ path: ws(workspaceId), body, signal, throwOnError: true })).data;
}

// --- alerts ---------------------------------------------------------------------------------

export async function readSummary(workspaceId: string, signal?: AbortSignal): Promise<AlertSummary> {
  return (await alertsReadSummary({ path: ws(workspaceId), signal, throwOnError: true })).data;
}

export async function listActive(workspaceId: string, signal?: AbortSignal): Promise<ActiveAlertsPublic> {
  return (await alertsReadActive({ path: ws(workspaceId), signal, throwOnError: true })).data;
}

export async function readEvent(workspaceId: string, eventId: string, signal?: AbortSignal): Promise<AlertEventDetail> {
  return (await alertsReadEvent({ path: { ...ws(workspaceId), event_id: eventId }, signal, throwOnError: true })).data;
}

export async function listNotifications(
  workspaceId: string,
  query: NotificationsQuery,
  signal?: AbortSignal,
): Promise<NotificationsPublic> {
  return (await alertsReadNotifications({ path: ws(workspaceId), query, signal, throwOnError: true })).data;
}

// --- silences -------------------------------------------------------------------------------

export async function listSilences(workspaceId: string, signal?: AbortSignal): Promise<SilencesPublic> {
  return (await silencesReadSilences({ path: ws(workspaceId), signal, throwOnError: true })).data;
}

export async function createSilence(workspaceId: string, body: SilenceCreate): Promise<Silence> {
  return (await silencesCreateSilence({ path: ws(workspaceId), body, throwOnError: true })).data;
}

export async function updateSilence(workspaceId: string, silenceId: string, body: SilenceUpdate): Promise<Silence> {
  return (
    await silencesUpdateSilence({ path: { ...ws(workspaceId), silence_id: silenceId }, body, throwOnError: true })
  ).data;
}

export async function deleteSilence(workspaceId: string, silenceId: string): Promise<void> {
  await silencesDeleteSilence({ path: { ...ws(workspaceId), silence_id: silenceId }, throwOnError: true });
}

// --- channels -------------------------------------------------------------------------------

export async function listChannels(workspaceId: string, signal?: AbortSignal): Promise<ChannelsPublic> {
  return (await channelsReadChannels({ path: ws(workspaceId), signal, throwOnError: true })).data;
}

export async function createChannel(workspaceId: string, body: ChannelCreate): Promise<Channel> {
  return (await channelsCreateChannel({ path: ws(workspaceId), body, throwOnError: true })).data;
}

export async function updateChannel(workspaceId: string, channelId: string, body: ChannelUpdate): Promise<Channel> {
  return (
    await channelsUpdateChannel({ path: { ...ws(workspaceId), channel_id: channelId }, body, throwOnError: true })
  ).data;
}

export async function deleteChannel(workspaceId: string, channelId: string): Promise<void> {
  await channelsDeleteChannel({ path: { ...ws(workspaceId), channel_id: channelId }, throwOnError: true });
}

export async function testChannel(workspaceId: string, channelId: string): Promise<ChannelTestResult> {
  return (await channelsTestChannel({ path: { ...ws(workspaceId), channel_id: channelId }, throwOnError: true })).data;
}

// --- recording rules ------------------------------------------------------------------------

export async function listRecordingRules(workspaceId: string, signal?: AbortSignal): Promise<RecordingRulesPublic> {
  return (await recordingRulesReadRules({ path: ws(workspaceId), signal, throwOnError: true })).data;
}

export async function createRecordingRule(workspaceId: string, body: RecordingRuleCreate): Promise<RecordingRule> {
  return (await recordingRulesCreateRule({ path: ws(workspaceId), body, throwOnError: true })).data;
}

export async function updateRecordingRule(
  workspaceId: string,
  ruleId: string,
  body: RecordingRuleUpdate,
): Promise<RecordingRule> {
  return (await recordingRulesUpdateRule({ path: { ...ws(workspaceId), rule_id: ruleId }, body, throwOnError: true }))
    .data;
}

export async function deleteRecordingRule(workspaceId: string, ruleId: string): Promise<void> {
  await recordingRulesDeleteRule({ path: { ...ws(workspaceId), rule_id: ruleId }, throwOnError: true });
}
