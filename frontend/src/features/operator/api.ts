import {
  healthReadHealth,
  operatorChangePlan,
  operatorCreatePlan,
  operatorDeletePlan,
  operatorReadOperatorAudit,
  operatorReadOverview,
  operatorReadPlans,
  operatorReadWorkspaces,
  operatorResumeWorkspace,
  operatorSuspendWorkspace,
  operatorUpdatePlan,
} from "@/client/sdk.gen";
import type {
  HealthPublic,
  OperatorAuditEventPublic,
  OperatorAuditEventsPublic,
  OperatorOverviewPublic,
  OperatorReadOperatorAuditData,
  OperatorReadWorkspacesData,
  OperatorWorkspaceDetail,
  OperatorWorkspacePublic,
  OperatorWorkspacesPublic,
  PlanChangePublic,
  PlanCreate,
  PlanPublic,
  PlansPublic,
  PlanUpdate,
} from "@/client/types.gen";
import "@/lib/apiClient";

export type Overview = OperatorOverviewPublic;
export type OperatorWorkspace = OperatorWorkspacePublic;
export type WorkspacesQuery = NonNullable<OperatorReadWorkspacesData["query"]>;
export type WorkspaceSort = NonNullable<WorkspacesQuery["sort"]>;
export type Plan = PlanPublic;
export type OperatorAuditEvent = OperatorAuditEventPublic;
export type OperatorAuditQuery = NonNullable<OperatorReadOperatorAuditData["query"]>;
export type Health = HealthPublic;
export type { PlanChangePublic, PlanCreate, PlanUpdate };

export async function readOverview(signal?: AbortSignal): Promise<Overview> {
  return (await operatorReadOverview({ signal, throwOnError: true })).data;
}

export async function listWorkspaces(query: WorkspacesQuery, signal?: AbortSignal): Promise<OperatorWorkspacesPublic> {
  return (await operatorReadWorkspaces({ query, signal, throwOnError: true })).data;
}

export async function changePlan(workspaceId: string, planId: string): Promise<PlanChangePublic> {
  const res = await operatorChangePlan({
    path: { workspace_id: workspaceId },
    body: { plan_id: planId },
    throwOnError: true,
  });
  return res.data;
}

export async function suspendWorkspace(workspaceId: string, reason: string): Promise<OperatorWorkspaceDetail> {
  const res = await operatorSuspendWorkspace({ path: { workspace_id: workspaceId }, body: { reason }, throwOnError: true });
  return res.data;
}

export async function resumeWorkspace(workspaceId: string): Promise<OperatorWorkspaceDetail> {
  return (await operatorResumeWorkspace({ path: { workspace_id: workspaceId }, throwOnError: true })).data;
}

export async function listPlans(signal?: AbortSignal): Promise<PlansPublic> {
  return (await operatorReadPlans({ signal, throwOnError: true })).data;
}

export async function createPlan(body: PlanCreate): Promise<Plan> {
  return (await operatorCreatePlan({ body, throwOnError: true })).data;
}

export async function updatePlan(planId: string, body: PlanUpdate): Promise<Plan> {
  return (await operatorUpdatePlan({ path: { plan_id: planId }, body, throwOnError: true })).data;
}

export async function deletePlan(planId: string): Promise<void> {
  await operatorDeletePlan({ path: { plan_id: planId }, throwOnError: true });
}

export async function readOperatorAudit(query: OperatorAuditQuery, signal?: AbortSignal): Promise<OperatorAuditEventsPublic> {
  return (await operatorReadOperatorAudit({ query, signal, throwOnError: true })).data;
}

/** The platform's health in detail: an operator's session gets every component. */
export async function readHealth(signal?: AbortSignal): Promise<Health> {
  return (await healthReadHealth({ signal, throwOnError: true })).data;
}
