import type { ReactElement } from "react";
import { useSearchParams } from "react-router";
import { DataTable } from "@/components/ui/DataTable";
import { EmptyState } from "@/components/ui/EmptyState";
import { Pager } from "@/components/ui/Pager";
import { formatDateTime } from "@/lib/time";
import { useDocumentTitle } from "@/lib/useDocumentTitle";
import type { OperatorAuditEvent } from "./api";
import { useOperatorAudit } from "./hooks/useOperator";

const PAGE_SIZE = 50;

/** What an operator can filter the log by: each family and its actions. */
export const OPERATOR_ACTIONS: { family: string; label: string; actions: string[] }[] = [
  { family: "workspace.*", label: "Workspaces", actions: ["workspace.plan_change", "workspace.suspend", "workspace.resume"] },
  { family: "plan.*", label: "Plans", actions: ["plan.create", "plan.update", "plan.delete"] },
  { family: "operator.*", label: "Operators", actions: ["operator.grant", "operator.revoke"] },
];

/** The event's details in one line: `reason: Payment overdue · from: Default · to: Team`. */
export function describeOperatorDetails(details: Record<string, unknown>): string {
  return Object.entries(details)
    .filter(([, v]) => v !== null && v !== undefined && !(typeof v === "object" && Object.keys(v as object).length === 0))
    .map(([k, v]) => `${k}: ${typeof v === "object" ? JSON.stringify(v) : String(v)}`)
    .join(" · ");
}

/** Operator › Audit log: every action operators took, newest first, filtered by action. */
export function AuditPage(): ReactElement {
  useDocumentTitle(["Audit log", "Operator"]);
  const [params, setParams] = useSearchParams();
  const action = params.get("action") ?? "";
  const page = Math.max(1, Number(params.get("page")) || 1);
  const log = useOperatorAudit({ action: action || undefined, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });
  const pages = Math.max(1, Math.ceil((log.data?.count ?? 0) / PAGE_SIZE));
  const go = (next: Record<string, string>): void => setParams(Object.fromEntries(Object.entries(next).filter(([, v]) => v)));
  return (
    <div className="page stack">
      <div className="page-header">
        <h1>Operator audit log</h1>
      </div>
      <section className="card stack" aria-label="Operator audit log">
        <label className="inline-field">
          Action
          <select value={action} onChange={(e) => go({ action: e.target.value })}>
            <option value="">Every action</option>
            {OPERATOR_ACTIONS.map((f) => (
              <optgroup key={f.family} label={f.label}>
                <option value={f.family}>All of {f.label.toLowerCase()}</option>
                {f.actions.map((a) => (
                  <option key={a} value={a}>
                    {a}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </label>
        <DataTable<OperatorAuditEvent>
          caption="What platform operators did, newest first"
          testId="operator-audit"
          rowTestId="operator-audit-row"
          loading={log.isPending}
          loadingLabel="Loading the audit log"
          error={log.error}
          errorTitle="Could not load the audit log"
          empty={<EmptyState title="Nothing recorded" />}
          rows={log.data?.data ?? []}
          rowKey={(e) => e.id}
          columns={[
            { id: "when", header: "When", cell: (e) => formatDateTime(Date.parse(e.created_at)) },
            { id: "who", header: "Operator", cell: (e) => e.actor_email ?? <span className="muted">–</span> },
            { id: "action", header: "Action", cell: (e) => <code>{e.action}</code> },
            { id: "details", header: "Details", className: "wrap", cell: (e) => describeOperatorDetails(e.details) },
          ]}
        />
        <Pager page={page} pages={pages} onPage={(p) => go({ action, page: String(p) })} />
      </section>
    </div>
  );
}
