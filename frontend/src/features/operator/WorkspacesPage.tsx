import { useState, type FormEvent, type ReactElement } from "react";
import { useSearchParams } from "react-router";
import { Alert } from "@/components/ui/Alert";
import { Button } from "@/components/ui/Button";
import { DataTable, type DataTableColumn } from "@/components/ui/DataTable";
import { Dialog } from "@/components/ui/Dialog";
import { EmptyState } from "@/components/ui/EmptyState";
import { Pager } from "@/components/ui/Pager";
import { TextField } from "@/components/ui/TextField";
import { useConfirm } from "@/components/ui/useConfirm";
import { toUserMessage } from "@/lib/apiError";
import { formatNumber } from "@/lib/format";
import { formatDateTime } from "@/lib/time";
import { useDocumentTitle } from "@/lib/useDocumentTitle";
import type { OperatorWorkspace, WorkspaceSort } from "./api";
import { useChangePlan, useOperatorWorkspaces, usePlans, useResume, useSuspend } from "./hooks/useOperator";
import { describeLowered } from "./planFields";
import { formatMetric, metricOf, USAGE_METRICS } from "./usageMetrics";

const PAGE_SIZE = 50;
const SORTS: { value: WorkspaceSort; label: string }[] = [
  { value: "name", label: "Name" },
  { value: "-created_at", label: "Newest" },
  ...USAGE_METRICS.map((m) => ({ value: `-${m.key}` as WorkspaceSort, label: `Most ${m.label.toLowerCase()}` })),
];
const isSort = (v: string | null): v is WorkspaceSort => SORTS.some((s) => s.value === v);

/**
 * Operator › Workspaces: every workspace with its plan, owners and usage; change its plan,
 * suspend or resume it. Search, plan, status, sort and page live in the URL.
 */
export function WorkspacesPage(): ReactElement {
  useDocumentTitle(["Workspaces", "Operator"]);
  const [params, setParams] = useSearchParams();
  const search = params.get("search") ?? "";
  const planId = params.get("plan") ?? "";
  const status = params.get("status") ?? "";
  const sortParam = params.get("sort");
  const sort: WorkspaceSort = isSort(sortParam) ? sortParam : "name";
  const page = Math.max(1, Number(params.get("page")) || 1);
  const workspaces = useOperatorWorkspaces({
    search: search || undefined,
    plan_id: planId || undefined,
    suspended: status === "" ? undefined : status === "suspended",
    sort,
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
  });
  const plans = usePlans();
  const changePlan = useChangePlan();
  const suspend = useSuspend();
  const resume = useResume();
  const [confirm, confirmDialog] = useConfirm();
  const [suspending, setSuspending] = useState<OperatorWorkspace | null>(null);
  const [outcome, setOutcome] = useState<{ text: string; lowered: string[] } | null>(null);
  const [searchText, setSearchText] = useState(search);
  const error = changePlan.error ?? resume.error;

  const update = (changes: Record<string, string>): void => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    if (!("page" in changes)) next.delete("page");
    setParams(next);
  };

  const onPlan = async (w: OperatorWorkspace, nextPlanId: string): Promise<void> => {
    const plan = plans.data?.data.find((p) => p.id === nextPlanId);
    if (!plan || plan.id === w.plan.id) return;
    const ok = await confirm({
      title: `Move ${w.name} to the plan ${plan.name}?`,
      message: `Its limits above ${plan.name}'s ceilings come down to them; its admins see the change in their audit log.`,
      confirmLabel: "Change plan",
    });
    if (!ok) return;
    setOutcome(null);
    resume.reset();
    changePlan.mutate(
      { workspaceId: w.id, planId: plan.id },
      {
        onSuccess: (res) =>
          setOutcome({ text: `${w.name} is on the plan ${plan.name}.`, lowered: describeLowered(res.lowered) }),
      },
    );
  };

  const columns: DataTableColumn<OperatorWorkspace>[] = [
    {
      id: "name",
      header: "Workspace",
      rowHeader: true,
      cell: (w) => (
        <>
          {w.name}
          <div className="muted small">
            {w.id.slice(0, 8)} · since {formatDateTime(Date.parse(w.created_at), undefined, false)}
          </div>
        </>
      ),
    },
    {
      id: "plan",
      header: "Plan",
      cell: (w) => (
        <select
          aria-label={`Plan of ${w.name}`}
          value={w.plan.id}
          disabled={changePlan.isPending || !plans.data}
          onChange={(e) => void onPlan(w, e.target.value)}
        >
          {(plans.data?.data ?? [w.plan]).map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
      ),
    },
    { id: "owners", header: "Owners", className: "wrap", cell: (w) => w.owners.join(", ") || <span className="muted">none</span> },
    { id: "members", header: "Members", numeric: true, cell: (w) => formatNumber(w.members) },
    { id: "dashboards", header: "Dashboards", numeric: true, cell: (w) => formatNumber(w.dashboards) },
    ...USAGE_METRICS.map(
      (m): DataTableColumn<OperatorWorkspace> => ({
        id: m.key,
        header: m.label,
        numeric: true,
        cell: (w) => formatMetric(m.key, metricOf(w, m.key)),
        title: (w) => w.usage.storage_error ?? undefined,
      }),
    ),
    {
      id: "status",
      header: "Status",
      cell: (w) =>
        w.suspended_at ? (
          <span className="badge badge-danger" title={w.suspended_reason ?? undefined}>
            suspended
          </span>
        ) : (
          <span className="badge badge-ok">active</span>
        ),
    },
    {
      id: "actions",
      header: "Actions",
      headerHidden: true,
      className: "actions",
      cell: (w) =>
        w.suspended_at ? (
          <Button
            size="sm"
            aria-label={`Resume ${w.name}`}
            disabled={resume.isPending}
            onClick={async () => {
              const ok = await confirm({
                title: `Resume ${w.name}?`,
                message: "Its writes and queries are accepted again (the gateway within 5 s).",
                confirmLabel: "Resume",
              });
              if (!ok) return;
              setOutcome(null);
              changePlan.reset();
              resume.mutate(w.id, { onSuccess: () => setOutcome({ text: `${w.name} is active again.`, lowered: [] }) });
            }}
          >
            Resume
          </Button>
        ) : (
          <Button size="sm" variant="danger" aria-label={`Suspend ${w.name}`} onClick={() => setSuspending(w)}>
            Suspend
          </Button>
        ),
    },
  ];

  const count = workspaces.data?.count ?? 0;
  const pages = Math.max(1, Math.ceil(count / PAGE_SIZE));
  return (
    <div className="page stack">
      <div className="page-header">
        <h1>Workspaces</h1>
        <span className="muted">{workspaces.data ? `${formatNumber(count)} workspaces` : null}</span>
      </div>
      <section className="card stack" aria-label="Workspaces of the platform">
        <form
          className="operator-filters"
          role="search"
          onSubmit={(e: FormEvent) => {
            e.preventDefault();
            update({ search: searchText.trim() });
          }}
        >
          <TextField
            label="Search"
            placeholder="Name, id or an owner's email"
            value={searchText}
            onChange={(e) => setSearchText(e.target.value)}
          />
          <Button type="submit">Search</Button>
          <label className="inline-field">
            Plan
            <select value={planId} onChange={(e) => update({ plan: e.target.value })}>
              <option value="">Every plan</option>
              {plans.data?.data.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
          </label>
          <label className="inline-field">
            Status
            <select value={status} onChange={(e) => update({ status: e.target.value })}>
              <option value="">Any</option>
              <option value="active">Active</option>
              <option value="suspended">Suspended</option>
            </select>
          </label>
          <label className="inline-field">
            Sort by
            <select value={sort} onChange={(e) => update({ sort: e.target.value === "name" ? "" : e.target.value })}>
              {SORTS.map((s) => (
                <option key={s.value} value={s.value}>
                  {s.label}
                </option>
              ))}
            </select>
          </label>
        </form>
        {outcome ? (
          <Alert tone="success" testId="operator-outcome">
            {outcome.text}
            {outcome.lowered.length > 0 ? ` Limits lowered: ${outcome.lowered.join("; ")}.` : null}
          </Alert>
        ) : null}
        {error ? <Alert testId="operator-error">{toUserMessage(error)}</Alert> : null}
        <DataTable
          caption="Every workspace with its plan, owners and usage"
          testId="operator-workspaces"
          rowTestId="operator-workspace"
          loading={workspaces.isPending}
          loadingLabel="Loading the workspaces"
          error={workspaces.error}
          errorTitle="Could not load the workspaces"
          empty={<EmptyState title="No workspace matches">Change the search or the filters.</EmptyState>}
          rows={workspaces.data?.data ?? []}
          rowKey={(w) => w.id}
          columns={columns}
        />
        <Pager page={page} pages={pages} onPage={(p) => update({ page: String(p) })} />
      </section>
      {suspending ? (
        <SuspendDialog
          workspace={suspending}
          pending={suspend.isPending}
          error={suspend.error}
          onClose={() => {
            setSuspending(null);
            suspend.reset();
          }}
          onSuspend={(reason) => {
            setOutcome(null);
            suspend.mutate(
              { workspaceId: suspending.id, reason },
              {
                onSuccess: () => {
                  setOutcome({ text: `${suspending.name} is suspended: ${reason}`, lowered: [] });
                  setSuspending(null);
                },
              },
            );
          }}
        />
      ) : null}
      {confirmDialog}
    </div>
  );
}

interface SuspendDialogProps {
  workspace: OperatorWorkspace;
  pending: boolean;
  error: Error | null;
  onClose: () => void;
  onSuspend: (reason: string) => void;
}

/** Asks for the reason a workspace is suspended: its users see it with every refusal. */
function SuspendDialog({ workspace, pending, error, onClose, onSuspend }: SuspendDialogProps): ReactElement {
  const [reason, setReason] = useState("");
  const [touched, setTouched] = useState(false);
  const missing = reason.trim() === "";
  return (
    <Dialog
      title={`Suspend ${workspace.name}?`}
      description="Its ingest keys get 403 at the gateway within 5 s, its query keys and members 403 on every query. Its data, dashboards and settings stay."
      onClose={onClose}
      testId="suspend-dialog"
    >
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          setTouched(true);
          if (!missing) onSuspend(reason.trim());
        }}
      >
        <TextField
          label="Reason"
          hint="Shown to the workspace's members and in every refusal."
          maxLength={500}
          value={reason}
          error={touched && missing ? "Say why the workspace is suspended." : undefined}
          onChange={(e) => setReason(e.target.value)}
        />
        {error ? <Alert>{toUserMessage(error)}</Alert> : null}
        <div className="row">
          <Button type="submit" variant="danger" disabled={pending}>
            Suspend
          </Button>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
