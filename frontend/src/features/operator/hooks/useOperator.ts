import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  changePlan,
  createPlan,
  deletePlan,
  listPlans,
  listWorkspaces,
  readHealth,
  readOperatorAudit,
  readOverview,
  resumeWorkspace,
  suspendWorkspace,
  updatePlan,
  type OperatorAuditQuery,
  type PlanCreate,
  type PlanUpdate,
  type WorkspacesQuery,
} from "../api";

const root = ["operator"] as const;
const plansKey = [...root, "plans"] as const;
const workspacesKey = [...root, "workspaces"] as const;

export function useOverview() {
  return useQuery({ queryKey: [...root, "overview"], queryFn: ({ signal }) => readOverview(signal), refetchInterval: 60_000 });
}

export function usePlatformHealth() {
  return useQuery({ queryKey: [...root, "health"], queryFn: ({ signal }) => readHealth(signal), refetchInterval: 30_000 });
}

export function useOperatorWorkspaces(query: WorkspacesQuery) {
  return useQuery({
    queryKey: [...workspacesKey, query],
    queryFn: ({ signal }) => listWorkspaces(query, signal),
    placeholderData: keepPreviousData,
  });
}

export function usePlans() {
  return useQuery({ queryKey: plansKey, queryFn: ({ signal }) => listPlans(signal) });
}

export function useOperatorAudit(query: OperatorAuditQuery) {
  return useQuery({
    queryKey: [...root, "audit", query],
    queryFn: ({ signal }) => readOperatorAudit(query, signal),
    placeholderData: keepPreviousData,
  });
}

/** Whatever an operator changes, the lists (workspaces, plans, overview, audit) are read again. */
function useInvalidateOperator(): () => Promise<void> {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: root });
}

export function useChangePlan() {
  const invalidate = useInvalidateOperator();
  return useMutation({
    mutationFn: ({ workspaceId, planId }: { workspaceId: string; planId: string }) => changePlan(workspaceId, planId),
    onSettled: invalidate,
  });
}

export function useSuspend() {
  const invalidate = useInvalidateOperator();
  return useMutation({
    mutationFn: ({ workspaceId, reason }: { workspaceId: string; reason: string }) => suspendWorkspace(workspaceId, reason),
    onSettled: invalidate,
  });
}

export function useResume() {
  const invalidate = useInvalidateOperator();
  return useMutation({ mutationFn: (workspaceId: string) => resumeWorkspace(workspaceId), onSettled: invalidate });
}

export function useCreatePlan() {
  const invalidate = useInvalidateOperator();
  return useMutation({ mutationFn: (body: PlanCreate) => createPlan(body), onSettled: invalidate });
}

export function useUpdatePlan() {
  const invalidate = useInvalidateOperator();
  return useMutation({
    mutationFn: ({ planId, body }: { planId: string; body: PlanUpdate }) => updatePlan(planId, body),
    onSettled: invalidate,
  });
}

export function useDeletePlan() {
  const invalidate = useInvalidateOperator();
  return useMutation({ mutationFn: (planId: string) => deletePlan(planId), onSettled: invalidate });
}
