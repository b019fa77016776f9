import { useMemo, useState, type FormEvent, type ReactElement } from "react";
import { useSearchParams } from "react-router";
import { useCurrentWorkspace } from "@/api/useCurrentWorkspace";
import { canAdmin } from "@/api/useWorkspaces";
import { TimeRangePicker } from "@/components/time/TimeRangePicker";
import { Alert } from "@/components/ui/Alert";
import { Button } from "@/components/ui/Button";
import { Pager } from "@/components/ui/Pager";
import { DataTable, type DataTableColumn } from "@/components/ui/DataTable";
import { EmptyState } from "@/components/ui/EmptyState";
import { TextField } from "@/components/ui/TextField";
import { formatDateTime, TimeRangeError } from "@/lib/time";
import type { AuditEvent, AuditQuery } from "./api";
import {
  AUDIT_ACTIONS,
  AUDIT_TARGET_TYPES,
  describeDetails,
  describeTarget,
  isPastLastPage,
  pageCount,
  pageSummary,
  readAuditFilters,
  toAuditQuery,
  writeAuditFilters,
  type AuditFilters,
} from "./auditFilters";
import { useAuditLog } from "./hooks/useAuditLog";
import { useMembers } from "./hooks/useMembers";

/** Settings › Audit log: who did what and when, filtered and paged; the filters live in the URL. */
export function AuditLogPage(): ReactElement {
  const workspace = useCurrentWorkspace();
  if (!canAdmin(workspace.role)) {
    return (
      <section className="card stack" aria-labelledby="audit-title">
        <h2 id="audit-title">Audit log</h2>
        <Alert tone="info">Only owners and admins can read the audit log.</Alert>
      </section>
    );
  }
  return <AuditLog workspaceId={workspace.id} />;
}

function AuditLog({ workspaceId }: { workspaceId: string }): ReactElement {
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => readAuditFilters(params), [params]);
  const setFilters = (next: AuditFilters): void => setParams(writeAuditFilters(next));
  // Resolved once per filter change: a relative range ("last 7 days") is anchored when applied.
  const resolved = useMemo((): { query?: AuditQuery; error?: string } => {
    try {
      return { query: toAuditQuery(filters) };
    } catch (err) {
      if (err instanceof TimeRangeError) return { error: err.message };
      throw err;
    }
  }, [filters]);
  const log = useAuditLog(workspaceId, resolved.query);
  const members = useMembers(workspaceId);
  const pages = pageCount(log.data?.count ?? 0);
  const pastLastPage = log.isSuccess && log.data.count > 0 && isPastLastPage(filters.page, log.data.count);
  const emails = useMemo(
    () => new Map((members.data?.data ?? []).map((m) => [m.user_id, m.email])),
    [members.data],
  );

  const columns: DataTableColumn<AuditEvent>[] = [
    { id: "time", header: "Time", cell: (e) => formatDateTime(Date.parse(e.created_at)) },
    {
      id: "actor",
      header: "Actor",
      cell: (e) =>
        e.actor_email ? (
          <button
            type="button"
            className="cell-filter"
            title="Show only this actor's events"
            onClick={() => setFilters({ ...filters, actor: e.actor_email ?? "", page: 1 })}
          >
            {e.actor_email}
          </button>
        ) : (
          <span className="muted">system</span>
        ),
    },
    { id: "action", header: "Action", cell: (e) => <code>{e.action}</code> },
    {
      id: "target",
      header: "Target",
      className: "wrap",
      cell: (e) =>
        e.target_type && e.target_id ? (
          <button
            type="button"
            className="cell-filter"
            title="Show only events about this target"
            onClick={() =>
              setFilters({
                ...filters,
                targetType: e.target_type ?? "",
                targetId: e.target_id ?? "",
                page: 1,
              })
            }
          >
            {describeTarget(e, emails)}
          </button>
        ) : (
          describeTarget(e, emails)
        ),
    },
    { id: "details", header: "Details", className: "wrap small", cell: (e) => describeDetails(e.details) },
    { id: "ip", header: "IP", className: "small", cell: (e) => e.ip ?? "–" },
  ];

  return (
    <section className="card stack" aria-labelledby="audit-title" aria-busy={log.isFetching}>
      <div className="section-header">
        <h2 id="audit-title">Audit log</h2>
        <TimeRangePicker
          value={{ from: filters.from, to: filters.to }}
          onChange={(r) => setFilters({ ...filters, ...r, page: 1 })}
        />
      </div>
      <FiltersForm key={params.toString()} filters={filters} onApply={setFilters} />
      {resolved.error ? <Alert>{resolved.error}</Alert> : null}
      {/* An invalid range before anything was loaded leaves nothing to show but its message. */}
      {resolved.query || log.data ? (
        <DataTable
          caption="Audit log events"
          testId="audit-table"
          loading={log.isPending}
          loadingLabel="Loading the audit log"
          error={log.error}
          errorTitle="Could not load the audit log"
          empty={
            log.data?.count === 0 ? (
              <EmptyState title="No events match these filters" testId="audit-empty">
                Widen the time range or clear a filter.
              </EmptyState>
            ) : pastLastPage ? (
              // A page past the last one (an edited or old link): say so, and offer the way back.
              <EmptyState title={`There are no entries on page ${filters.page}`} testId="audit-past-last-page">
                <p>
                  {pages === 1
                    ? "These filters match one page of events."
                    : `These filters match ${pages} pages of events.`}
                </p>
                <Button size="sm" onClick={() => setFilters({ ...filters, page: 1 })}>
                  Go to the first page
                </Button>
              </EmptyState>
            ) : undefined
          }
          rows={log.data?.data ?? []}
          rowKey={(e) => e.id}
          columns={columns}
        />
      ) : null}
      {log.isSuccess && log.data.count > 0 && !pastLastPage ? (
        <Pager
          page={filters.page}
          pages={pages}
          onPage={(page) => setFilters({ ...filters, page })}
          label="Audit log pages"
          summary={<span data-testid="audit-summary">{pageSummary(filters.page, log.data.count)}</span>}
        />
      ) : null}
    </section>
  );
}

function FiltersForm({ filters, onApply }: { filters: AuditFilters; onApply: (f: AuditFilters) => void }): ReactElement {
  const [draft, setDraft] = useState(filters);
  const onSubmit = (e: FormEvent): void => {
    e.preventDefault();
    onApply({ ...draft, page: 1 });
  };
  const active = Boolean(filters.action || filters.actor || filters.targetType || filters.targetId);
  return (
    <form className="audit-filters" onSubmit={onSubmit} aria-label="Audit log filters">
      <label className="field">
        Action
        <select value={draft.action} onChange={(e) => setDraft({ ...draft, action: e.target.value })} name="action">
          <option value="">Any action</option>
          {AUDIT_ACTIONS.map((g) => (
            <optgroup key={g.family} label={g.label}>
              <option value={g.family}>All {g.label.toLowerCase()} actions</option>
              {g.actions.map((a) => (
                <option key={a} value={a}>
                  {a}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
      </label>
      <TextField
        label="Actor"
        name="actor"
        placeholder="part of an email"
        value={draft.actor}
        onChange={(e) => setDraft({ ...draft, actor: e.target.value })}
      />
      <label className="field">
        Target type
        <select value={draft.targetType} onChange={(e) => setDraft({ ...draft, targetType: e.target.value })} name="target_type">
          <option value="">Any target</option>
          {AUDIT_TARGET_TYPES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
      </label>
      <TextField
        label="Target id"
        name="target_id"
        placeholder="exact id"
        value={draft.targetId}
        onChange={(e) => setDraft({ ...draft, targetId: e.target.value })}
      />
      <Button type="submit" variant="primary">
        Apply filters
      </Button>
      {active ? (
        <Button
          variant="ghost"
          onClick={() => onApply({ ...filters, action: "", actor: "", targetType: "", targetId: "", page: 1 })}
        >
          Clear filters
        </Button>
      ) : null}
    </form>
  );
}
