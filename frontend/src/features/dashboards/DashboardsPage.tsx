import { useDeferredValue, useId, useMemo, useRef, useState, type FormEvent, type ReactElement } from "react";
import { Link, useLocation, useNavigate, useSearchParams } from "react-router";
import type { DashboardSpec, DashboardSummary } from "@/api/dashboards";
import { useCurrentWorkspace } from "@/api/useCurrentWorkspace";
import { useDashboards } from "@/api/useDashboards";
import { canEdit } from "@/api/useWorkspaces";
import { Alert } from "@/components/ui/Alert";
import { Button } from "@/components/ui/Button";
import { DataTable, type DataTableColumn } from "@/components/ui/DataTable";
import { EmptyState } from "@/components/ui/EmptyState";
import { TextField } from "@/components/ui/TextField";
import { useConfirm } from "@/components/ui/useConfirm";
import { toUserMessage } from "@/lib/apiError";
import { DEFAULT_QUERY } from "@/lib/dql/dql";
import { formatDateTime } from "@/lib/time";
import { useDocumentTitle } from "@/lib/useDocumentTitle";
import { ImportDashboard } from "./components/ImportDashboard";
import {
  describeNoMatch,
  filterDashboards,
  filterFromParams,
  isFiltering,
  matchCount,
  NO_FILTER,
  toggleTag,
  withFilterParams,
  type DashboardFilter,
} from "./dashboardFilter";
import { useCreateDashboard, useDeleteDashboard, useDuplicateDashboard } from "./hooks/useDashboardMutations";
import "./dashboards.css";

/** What a new dashboard starts with: a host variable and one CPU panel using it. */
export function starterSpec(): DashboardSpec {
  return {
    schema_version: 1,
    time: { from: "now-1h", to: "now" },
    variables: [
      { name: "host", label: "Host", type: "query", query: "show_tag_value(from=['cpu'], keyin=['host'])", multi: true },
    ],
    panels: [
      {
        id: "p1",
        type: "timeseries",
        title: "CPU user %",
        grid: { x: 0, y: 0, w: 12, h: 8 },
        queries: [{ query: DEFAULT_QUERY.replace("[15m::1m]", "{host = re'$host'} [15m::1m]") }],
        unit: "percent",
      },
    ],
  };
}

/**
 * Marks the history entries the search field and the tag buttons wrote (`location.state`), so
 * the field follows the URL only when something else changed it (a link, Back).
 */
const FILTER_WRITE = { dashboardsFilter: true };
const isFilterWrite = (state: unknown): boolean =>
  typeof state === "object" && state !== null && "dashboardsFilter" in state;

/**
 * The list's filter, kept in the URL (`q`, `tag`). The search text is also held here: a URL
 * change reaches the page a moment later (a transition), and a field showing only the URL
 * would lose its caret and keys typed quickly in between.
 */
function useDashboardFilter(): [DashboardFilter, (next: DashboardFilter) => void] {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const fromUrl = useMemo(() => filterFromParams(params), [params]);
  const [search, setSearch] = useState(fromUrl.search);
  const [seenKey, setSeenKey] = useState(location.key);
  if (location.key !== seenKey) {
    setSeenKey(location.key);
    if (!isFilterWrite(location.state)) setSearch(fromUrl.search);
  }
  const filter = useMemo(() => ({ search, tags: fromUrl.tags }), [search, fromUrl.tags]);
  const setFilter = (next: DashboardFilter): void => {
    setSearch(next.search);
    setParams((prev) => withFilterParams(prev, next), { replace: true, state: FILTER_WRITE });
  };
  return [filter, setFilter];
}

export function DashboardsPage(): ReactElement {
  const workspace = useCurrentWorkspace();
  useDocumentTitle(["Dashboards", workspace.name]);
  const editable = canEdit(workspace.role);
  const list = useDashboards(workspace.id);
  const create = useCreateDashboard(workspace.id);
  const duplicate = useDuplicateDashboard(workspace.id);
  const remove = useDeleteDashboard(workspace.id);
  const navigate = useNavigate();
  const [title, setTitle] = useState("");
  const [titleError, setTitleError] = useState<string>();
  const [importing, setImporting] = useState(false);
  const [confirm, confirmDialog] = useConfirm();
  const [filter, setFilter] = useDashboardFilter();
  const searchId = useId();
  const searchRef = useRef<HTMLInputElement>(null);
  // Typing stays instant with a long list: the rows follow as soon as the browser can.
  const shownFilter = useDeferredValue(filter);
  const all = useMemo(() => list.data?.data ?? [], [list.data]);
  const rows = useMemo(() => filterDashboards(all, shownFilter), [all, shownFilter]);
  const filtering = isFiltering(filter);

  const chooseTag = (tag: string): void => setFilter({ ...filter, tags: toggleTag(filter.tags, tag) });
  const removeTag = (tag: string): void => {
    setFilter({ ...filter, tags: filter.tags.filter((t) => t !== tag) });
    searchRef.current?.focus(); // the chip pressed is gone
  };
  const clearFilters = (): void => {
    setFilter(NO_FILTER);
    searchRef.current?.focus();
  };

  const onCreate = (e: FormEvent): void => {
    e.preventDefault();
    if (!title.trim()) {
      setTitleError("Give the dashboard a title.");
      return;
    }
    setTitleError(undefined);
    create.mutate(
      { title: title.trim(), spec: starterSpec() },
      { onSuccess: (d) => navigate(`/w/${workspace.id}/dashboards/${d.id}`) },
    );
  };

  const mutationError = create.error ?? duplicate.error ?? remove.error;
  const columns: DataTableColumn<DashboardSummary>[] = [
    { id: "title", header: "Title", cell: (d) => <Link to={`/w/${workspace.id}/dashboards/${d.id}`}>{d.title}</Link> },
    {
      id: "tags",
      header: "Tags",
      cell: (d) =>
        d.tags.length > 0 ? (
          <span className="tag-list">
            {d.tags.map((tag) => (
              <button
                key={tag}
                type="button"
                className="tag-chip"
                aria-label={`Filter by tag ${tag}`}
                aria-pressed={filter.tags.includes(tag)}
                onClick={() => chooseTag(tag)}
              >
                {tag}
              </button>
            ))}
          </span>
        ) : null,
    },
    { id: "updated", header: "Updated", cell: (d) => formatDateTime(Date.parse(d.updated_at), undefined, false) },
    { id: "version", header: "Version", cell: (d) => d.version },
    {
      id: "actions",
      header: "Actions",
      headerHidden: true,
      className: "actions",
      cell: (d) =>
        editable ? (
          <>
            <Button size="sm" aria-label={`Duplicate ${d.title}`} onClick={() => duplicate.mutate(d.id)}>
              Duplicate
            </Button>
            <Button
              size="sm"
              variant="danger"
              aria-label={`Delete ${d.title}`}
              onClick={async () => {
                const ok = await confirm({
                  title: `Delete "${d.title}"?`,
                  message: "The dashboard and its version history go for everyone in this workspace.",
                  confirmLabel: "Delete",
                });
                if (ok) remove.mutate(d.id);
              }}
            >
              Delete
            </Button>
          </>
        ) : null,
    },
  ];
  return (
    <div className="page">
      <div className="page-header">
        <h1>Dashboards</h1>
        {editable ? (
          <Button aria-expanded={importing} onClick={() => setImporting((v) => !v)}>
            {importing ? "Close import" : "Import JSON"}
          </Button>
        ) : null}
      </div>
      {editable && importing ? (
        <ImportDashboard workspaceId={workspace.id} onImported={(d) => navigate(`/w/${workspace.id}/dashboards/${d.id}`)} />
      ) : null}
      {editable ? (
        <form className="row card keys-form" onSubmit={onCreate} noValidate aria-label="New dashboard">
          <TextField label="New dashboard title" value={title} error={titleError} onChange={(e) => setTitle(e.target.value)} />
          <Button type="submit" variant="primary" disabled={create.isPending}>
            Create dashboard
          </Button>
        </form>
      ) : (
        <Alert tone="info">You can view dashboards; ask an editor or admin to change them.</Alert>
      )}
      {mutationError ? <Alert>{toUserMessage(mutationError)}</Alert> : null}
      <section className="card" aria-label="Dashboard list">
        {list.isSuccess && all.length === 0 ? null : (
          <div className="dashboard-filters">
            <div className="field dashboard-search">
              <label htmlFor={searchId}>Search dashboards</label>
              <input
                ref={searchRef}
                id={searchId}
                type="search"
                placeholder="Title or tag"
                autoComplete="off"
                value={filter.search}
                onChange={(e) => setFilter({ ...filter, search: e.target.value })}
              />
            </div>
            {filter.tags.length > 0 ? (
              <ul className="tag-filters" aria-label="Tag filters">
                {filter.tags.map((tag) => (
                  <li key={tag}>
                    <button
                      type="button"
                      className="tag-chip tag-filter"
                      aria-label={`Remove tag filter ${tag}`}
                      onClick={() => removeTag(tag)}
                    >
                      {tag}
                      <span aria-hidden="true">×</span>
                    </button>
                  </li>
                ))}
              </ul>
            ) : null}
            {filtering ? (
              <Button size="sm" variant="ghost" onClick={clearFilters}>
                Clear filters
              </Button>
            ) : null}
            <p className="dashboard-count muted small" role="status">
              {filtering && list.isSuccess ? matchCount(rows.length, all.length) : ""}
            </p>
          </div>
        )}
        <DataTable
          caption="Dashboards"
          testId="dashboards-table"
          loading={list.isPending}
          loadingLabel="Loading dashboards"
          error={list.error}
          errorTitle="Could not load dashboards"
          empty={
            all.length === 0 ? (
              <EmptyState title="No dashboards yet">Create one above; it starts with a CPU panel and a host variable.</EmptyState>
            ) : (
              <EmptyState title="No dashboards match" testId="dashboards-no-match">
                <p>{describeNoMatch(shownFilter)}</p>
                <Button onClick={clearFilters}>Clear filters</Button>
              </EmptyState>
            )
          }
          rows={rows}
          rowKey={(d) => d.id}
          columns={columns}
        />
      </section>
      {confirmDialog}
    </div>
  );
}
