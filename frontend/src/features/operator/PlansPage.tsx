import { useState, type ReactElement } from "react";
import { Link } from "react-router";
import { Alert } from "@/components/ui/Alert";
import { Button } from "@/components/ui/Button";
import { DataTable, type DataTableColumn } from "@/components/ui/DataTable";
import { useConfirm } from "@/components/ui/useConfirm";
import { toUserMessage } from "@/lib/apiError";
import { formatNumber } from "@/lib/format";
import { useDocumentTitle } from "@/lib/useDocumentTitle";
import type { Plan } from "./api";
import { useCreatePlan, useDeletePlan, usePlans, useUpdatePlan } from "./hooks/useOperator";
import { PlanForm } from "./PlanForm";
import { formatBound, PLAN_FIELDS, planChanges } from "./planFields";

const SHOWN = ["ingest_points_per_second", "active_series", "retention_days", "max_members", "max_dashboards"];

/** Operator › Plans: the plans with their ceilings; create, edit, make default, delete. */
export function PlansPage(): ReactElement {
  useDocumentTitle(["Plans", "Operator"]);
  const plans = usePlans();
  const create = useCreatePlan();
  const update = useUpdatePlan();
  const remove = useDeletePlan();
  const [confirm, confirmDialog] = useConfirm();
  const [form, setForm] = useState<{ plan: Plan; mode: "create" | "edit" } | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const defaultPlan = plans.data?.data.find((p) => p.is_default);
  const error = remove.error ?? (form ? null : update.error);

  const columns: DataTableColumn<Plan>[] = [
    {
      id: "name",
      header: "Plan",
      rowHeader: true,
      cell: (p) => (
        <>
          {p.name} {p.is_default ? <span className="badge badge-accent">default</span> : null}
          {p.description ? <div className="muted small">{p.description}</div> : null}
        </>
      ),
    },
    {
      id: "workspaces",
      header: "Workspaces",
      numeric: true,
      cell: (p) => <Link to={`/operator/workspaces?plan=${p.id}`}>{formatNumber(p.workspaces)}</Link>,
    },
    ...PLAN_FIELDS.filter((f) => SHOWN.includes(f.key)).map(
      (f): DataTableColumn<Plan> => ({ id: f.key, header: f.label, numeric: true, cell: (p) => formatBound(f, p[f.key]) }),
    ),
    {
      id: "actions",
      header: "Actions",
      headerHidden: true,
      className: "actions",
      cell: (p) => (
        <div className="row">
          <Button size="sm" aria-label={`Edit ${p.name}`} onClick={() => setForm({ plan: p, mode: "edit" })}>
            Edit
          </Button>
          {!p.is_default ? (
            <Button
              size="sm"
              aria-label={`Make ${p.name} the default`}
              disabled={update.isPending}
              onClick={async () => {
                const ok = await confirm({
                  title: `Make ${p.name} the default plan?`,
                  message: "New workspaces start on it; workspaces on other plans stay where they are.",
                  confirmLabel: "Make default",
                });
                if (!ok) return;
                remove.reset();
                update.mutate({ planId: p.id, body: { is_default: true } }, { onSuccess: () => setSaved(`${p.name} is the default plan.`) });
              }}
            >
              Make default
            </Button>
          ) : null}
          {!p.is_default ? (
            <Button
              size="sm"
              variant="danger"
              aria-label={`Delete ${p.name}`}
              disabled={remove.isPending}
              onClick={async () => {
                const ok = await confirm({ title: `Delete the plan ${p.name}?`, confirmLabel: "Delete" });
                if (!ok) return;
                update.reset();
                remove.mutate(p.id, { onSuccess: () => setSaved(`${p.name} was deleted.`) });
              }}
            >
              Delete
            </Button>
          ) : null}
        </div>
      ),
    },
  ];

  return (
    <div className="page stack">
      <div className="page-header">
        <h1>Plans</h1>
        <Button
          variant="primary"
          disabled={!defaultPlan}
          onClick={() => {
            create.reset();
            setForm(defaultPlan ? { plan: defaultPlan, mode: "create" } : null);
          }}
        >
          New plan
        </Button>
      </div>
      <section className="card stack" aria-label="Plans">
        <p className="muted small">
          A plan holds the ceiling of every workspace limit (the monitor interval is a floor). A workspace&apos;s owners
          and admins set its limits within them; moving a workspace to a smaller plan lowers its limits.
        </p>
        {saved ? <Alert tone="success" testId="plans-saved">{saved}</Alert> : null}
        {error ? <Alert testId="plans-error">{toUserMessage(error)}</Alert> : null}
        <DataTable
          caption="Plans and their main ceilings"
          testId="plans-table"
          rowTestId="plan-row"
          loading={plans.isPending}
          loadingLabel="Loading the plans"
          error={plans.error}
          errorTitle="Could not load the plans"
          rows={plans.data?.data ?? []}
          rowKey={(p) => p.id}
          columns={columns}
        />
      </section>
      {form ? (
        <PlanForm
          plan={form.plan}
          mode={form.mode}
          pending={create.isPending || update.isPending}
          error={form.mode === "create" ? create.error : update.error}
          onClose={() => setForm(null)}
          onSubmit={(body) => {
            const done = (text: string) => () => {
              setSaved(text);
              setForm(null);
            };
            if (form.mode === "create") {
              create.mutate(body, { onSuccess: done(`The plan ${body.name} was created.`) });
              return;
            }
            const changes = planChanges(form.plan, body);
            if (Object.keys(changes).length === 0) {
              setForm(null);
              return;
            }
            update.mutate({ planId: form.plan.id, body: changes }, { onSuccess: done(`The plan ${body.name} was saved.`) });
          }}
        />
      ) : null}
      {confirmDialog}
    </div>
  );
}
