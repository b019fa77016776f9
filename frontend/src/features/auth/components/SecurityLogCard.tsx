import { useState, type ReactElement } from "react";
import { DataTable, type DataTableColumn } from "@/components/ui/DataTable";
import { Pager } from "@/components/ui/Pager";
import type { AuditEventPublic } from "@/client/types.gen";
import { formatDateTime } from "@/lib/time";
import { SECURITY_LOG_PAGE, useSecurityLog } from "../hooks/useAccount";
import { describeAction, describeUserAgent, isWarning } from "../securityLog";

/** The account's own security log: sign-ins (failed ones too), sessions, passwords, profile. */
export function SecurityLogCard(): ReactElement {
  const [page, setPage] = useState(0);
  const [renewals, setRenewals] = useState(false);
  const log = useSecurityLog(page, renewals);
  const count = log.data?.count ?? 0;
  const pages = Math.max(1, Math.ceil(count / SECURITY_LOG_PAGE));

  const columns: DataTableColumn<AuditEventPublic>[] = [
    { id: "when", header: "When", cell: (e) => formatDateTime(Date.parse(e.created_at), undefined, true) },
    {
      id: "what",
      header: "What",
      cell: (e) => (
        <span className={isWarning(e.action) ? "security-warning" : undefined}>{describeAction(e.action)}</span>
      ),
    },
    { id: "ip", header: "Address", cell: (e) => e.ip ?? <span className="muted">–</span> },
    { id: "device", header: "Device", cell: (e) => <span title={e.user_agent ?? undefined}>{describeUserAgent(e.user_agent)}</span> },
  ];

  return (
    <section className="card account-form" aria-labelledby="security-log-title">
      <h2 id="security-log-title">Security log</h2>
      <p className="muted">What happened to your account, newest first: only you can see it.</p>
      <label className="check">
        <input
          type="checkbox"
          checked={renewals}
          onChange={(e) => {
            setPage(0);
            setRenewals(e.target.checked);
          }}
        />{" "}
        Show session renewals (each signed-in browser renews its session every few minutes)
      </label>
      <DataTable
        caption="Your account's security log"
        testId="security-log-table"
        loading={log.isPending}
        loadingLabel="Loading your security log"
        error={log.error}
        errorTitle="Could not load your security log"
        rows={log.data?.data ?? []}
        rowKey={(e) => e.id}
        columns={columns}
      />
      <Pager page={page + 1} pages={pages} onPage={(p) => setPage(p - 1)} label="Pages of the security log" newestFirst />
    </section>
  );
}
