import { useMemo, useState, type FormEvent, type ReactElement } from "react";
import { useSearchParams } from "react-router";
import { TimeRangePicker } from "@/components/time/TimeRangePicker";
import { Alert } from "@/components/ui/Alert";
import { Button } from "@/components/ui/Button";
import { Pager } from "@/components/ui/Pager";
import { EmptyState } from "@/components/ui/EmptyState";
import { TextField } from "@/components/ui/TextField";
import { TimeRangeError } from "@/lib/time";
import { useDocumentTitle } from "@/lib/useDocumentTitle";
import { useCurrentWorkspace } from "@/api/useCurrentWorkspace";
import type { EventKind, EventsQuery, Monitor, Severity } from "./api";
import { EventsTable } from "./components/EventsTable";
import {
  EVENTS_PAGE_SIZE,
  isFilteringEvents,
  parseTagInput,
  readEventFilters,
  toEventsQuery,
  writeEventFilters,
  type EventFilters,
} from "./eventFilters";
import { useAlertEvents } from "./hooks/useAlerts";
import { useMonitors } from "./hooks/useMonitors";
import { EVENT_KINDS, KIND_LABELS, SEVERITIES, SEVERITY_LABELS } from "./severity";

/** Alerts › Events: every state change of every group, newest first, filtered; the filters live in the URL. */
export function EventsPage(): ReactElement {
  const workspace = useCurrentWorkspace();
  useDocumentTitle(["Events", "Alerts", workspace.name]);
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => readEventFilters(params), [params]);
  const setFilters = (next: EventFilters): void => setParams(writeEventFilters(next));
  const resolved = useMemo((): { query?: EventsQuery; error?: string } => {
    try {
      return { query: toEventsQuery(filters) };
    } catch (err) {
      if (err instanceof TimeRangeError) return { error: err.message };
      throw err;
    }
  }, [filters]);
  const events = useAlertEvents(workspace.id, resolved.query, { live: filters.to === "now" });
  const monitors = useMonitors(workspace.id, { live: false });
  const count = events.data?.count ?? 0;
  const pages = Math.max(1, Math.ceil(count / EVENTS_PAGE_SIZE));

  return (
    <>
      <div className="page-header">
        <h1>Alert events</h1>
        <TimeRangePicker
          value={{ from: filters.from, to: filters.to }}
          onChange={(r) => setFilters({ ...filters, ...r, page: 1 })}
        />
      </div>
      <section className="card stack" aria-label="Events" aria-busy={events.isFetching}>
        <FiltersForm key={params.toString()} filters={filters} monitors={monitors.data?.data ?? []} onApply={setFilters} />
        {resolved.error ? <Alert>{resolved.error}</Alert> : null}
        {resolved.query || events.data ? (
          <EventsTable
            workspaceId={workspace.id}
            caption="Alert events, newest first"
            events={events.data?.data ?? []}
            loading={events.isPending}
            error={events.error}
            empty={
              <EmptyState title="No events match" testId="events-empty">
                {isFilteringEvents(filters)
                  ? "Widen the time range or clear a filter."
                  : "Nothing changed state in this time range: each group that starts or stops firing is recorded here."}
              </EmptyState>
            }
          />
        ) : null}
        {count > 0 ? (
          <Pager
            page={filters.page}
            pages={pages}
            onPage={(page) => setFilters({ ...filters, page })}
            label="Event pages"
            summary={<span data-testid="events-count">{count === 1 ? "1 event" : `${count} events`}</span>}
            newestFirst
          />
        ) : null}
      </section>
    </>
  );
}

interface FiltersFormProps {
  filters: EventFilters;
  monitors: readonly Monitor[];
  onApply: (filters: EventFilters) => void;
}

function FiltersForm({ filters, monitors, onApply }: FiltersFormProps): ReactElement {
  const [draft, setDraft] = useState(filters);
  const [tagText, setTagText] = useState(filters.tags.join(", "));
  const [tagError, setTagError] = useState<string>();
  const toggle = <T extends string>(list: T[], value: T, on: boolean): T[] =>
    on ? [...list, value] : list.filter((v) => v !== value);
  const onSubmit = (e: FormEvent): void => {
    e.preventDefault();
    const tags = parseTagInput(tagText);
    if (tags.error) {
      setTagError(tags.error);
      return;
    }
    onApply({ ...draft, tags: tags.tags, page: 1 });
  };
  return (
    <form className="alerting-filters" onSubmit={onSubmit} aria-label="Event filters">
      <label className="field">
        Monitor
        <select name="monitor" value={draft.monitor} onChange={(e) => setDraft({ ...draft, monitor: e.target.value })}>
          <option value="">Any monitor</option>
          {monitors.map((m) => (
            <option key={m.id} value={m.id}>
              {m.name}
            </option>
          ))}
          {draft.monitor && !monitors.some((m) => m.id === draft.monitor) ? (
            <option value={draft.monitor}>a deleted monitor</option>
          ) : null}
        </select>
      </label>
      <fieldset className="check-group">
        <legend>Event</legend>
        {EVENT_KINDS.map((k) => (
          <label key={k} className="check">
            <input
              type="checkbox"
              checked={draft.kinds.includes(k)}
              onChange={(e) => setDraft({ ...draft, kinds: toggle<EventKind>(draft.kinds, k, e.target.checked) })}
            />
            {KIND_LABELS[k]}
          </label>
        ))}
      </fieldset>
      <fieldset className="check-group">
        <legend>Severity</legend>
        {SEVERITIES.map((s) => (
          <label key={s} className="check">
            <input
              type="checkbox"
              checked={draft.severities.includes(s)}
              onChange={(e) => setDraft({ ...draft, severities: toggle<Severity>(draft.severities, s, e.target.checked) })}
            />
            {SEVERITY_LABELS[s]}
          </label>
        ))}
      </fieldset>
      <TextField
        label="Tags"
        name="tags"
        placeholder="host=web-1, region=eu"
        value={tagText}
        error={tagError}
        onChange={(e) => {
          setTagText(e.target.value);
          setTagError(undefined);
        }}
      />
      <div className="filter-actions">
        <Button type="submit" variant="primary">
          Apply filters
        </Button>
        {isFilteringEvents(filters) ? (
          <Button variant="ghost" onClick={() => onApply({ ...filters, monitor: "", kinds: [], severities: [], tags: [], page: 1 })}>
            Clear filters
          </Button>
        ) : null}
      </div>
    </form>
  );
}
