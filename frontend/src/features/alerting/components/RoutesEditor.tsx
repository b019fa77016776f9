import type { ReactElement } from "react";
import { Link } from "react-router";
import { Spinner } from "@/components/ui/Spinner";
import { toUserMessage } from "@/lib/apiError";
import type { Channel, Severity } from "../api";
import { SEVERITIES, SEVERITY_LABELS } from "../severity";

export interface RoutesEditorProps {
  workspaceId: string;
  routes: Record<Severity, string[]>;
  onChange: (routes: Record<Severity, string[]>) => void;
  channels: readonly Channel[] | undefined;
  loading: boolean;
  error: unknown;
  /** Severities that have a condition (the others are shown, marked unused). */
  used: ReadonlySet<Severity>;
  readOnly?: boolean;
  errors?: Partial<Record<string, string>>;
}

/** Whom each severity tells: a checkbox per channel, per severity (a no-data alert uses its severity's). */
export function RoutesEditor({
  workspaceId,
  routes,
  onChange,
  channels,
  loading,
  error,
  used,
  readOnly = false,
  errors = {},
}: RoutesEditorProps): ReactElement {
  if (loading) return <Spinner label="Loading channels" />;
  if (error) return <p className="field-error">Could not load the channels: {toUserMessage(error)}</p>;
  if (!channels || channels.length === 0) {
    return (
      <p className="muted" data-testid="no-channels">
        No channels yet: alerts are recorded and shown here, but sent nowhere.{" "}
        <Link to={`/w/${workspaceId}/alerts/channels`}>Channels</Link> (admins) adds a webhook or email addresses.
      </p>
    );
  }
  const toggle = (severity: Severity, channelId: string, on: boolean): void => {
    const current = routes[severity];
    onChange({ ...routes, [severity]: on ? [...current, channelId] : current.filter((c) => c !== channelId) });
  };
  return (
    <div className="routes-grid">
      {SEVERITIES.map((s) => (
        <fieldset key={s} data-testid={`routes-${s}`}>
          <legend>
            {SEVERITY_LABELS[s]}
            {used.has(s) ? "" : " (no condition)"}
          </legend>
          {channels.map((c) => (
            <label key={c.id} className="check">
              <input
                type="checkbox"
                checked={routes[s].includes(c.id)}
                disabled={readOnly}
                onChange={(e) => toggle(s, c.id, e.target.checked)}
              />
              {c.name}
              <span className="muted small">
                ({c.type}
                {c.enabled ? "" : ", off"})
              </span>
            </label>
          ))}
          {errors[`routes.${s}`] ? <span className="field-error">{errors[`routes.${s}`]}</span> : null}
        </fieldset>
      ))}
    </div>
  );
}
