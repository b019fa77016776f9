import { useState, type ReactElement } from "react";
import { useNavigate } from "react-router";
import type { ApiKey } from "@/api/apiKeys";
import type { Member } from "@/api/members";
import { useApiKeys } from "@/api/useApiKeys";
import { useCurrentUser } from "@/api/useCurrentUser";
import { useCurrentWorkspace } from "@/api/useCurrentWorkspace";
import { canAdmin } from "@/api/useWorkspaces";
import { Alert } from "@/components/ui/Alert";
import { Button } from "@/components/ui/Button";
import { DataTable, type DataTableColumn } from "@/components/ui/DataTable";
import { EmptyState } from "@/components/ui/EmptyState";
import { useConfirm } from "@/components/ui/useConfirm";
import { toUserMessage } from "@/lib/apiError";
import { formatDateTime } from "@/lib/time";
import type { MemberRemoved } from "./api";
import { useChangeRole, useLeaveWorkspace, useMembers, useRemoveMember } from "./hooks/useMembers";
import { canManageMember, grantableRoles, isRole, ROLES } from "./roles";

/** Settings › Members: who is in the workspace, their role (changeable by admins), remove, leave. */
export function MembersPage(): ReactElement {
  const workspace = useCurrentWorkspace();
  const me = useCurrentUser();
  const members = useMembers(workspace.id);
  const changeRole = useChangeRole(workspace.id);
  const remove = useRemoveMember(workspace.id);
  // who created which key: removing a member offers to revoke theirs (admins only see keys)
  const keys = useApiKeys(workspace.id, canAdmin(workspace.role));
  const leave = useLeaveWorkspace(workspace.id);
  const [confirm, confirmDialog] = useConfirm();
  const navigate = useNavigate();
  const myRole = workspace.role;
  const grantable = grantableRoles(myRole);
  const mutationError = changeRole.error ?? remove.error ?? leave.error;
  const isSelf = (m: Member): boolean => m.user_id === me.data?.id;

  const columns: DataTableColumn<Member>[] = [
    { id: "email", header: "Email", cell: (m) => m.email },
    { id: "name", header: "Name", cell: (m) => m.full_name || <span className="muted">–</span> },
    {
      id: "role",
      header: "Role",
      // Your own role can be lowered too (the backend keeps at least one owner).
      cell: (m) =>
        canManageMember(myRole, m.role) ? (
          <select
            aria-label={`Role of ${m.email}`}
            value={m.role}
            disabled={changeRole.isPending}
            onChange={async (e) => {
              const role = e.target.value;
              if (!isRole(role)) return;
              remove.reset();
              leave.reset();
              // The select stays on the current role until the change is saved.
              if (
                isSelf(m) &&
                !(await confirm({
                  title: `Change your own role to ${role}?`,
                  message: "You may lose access to these settings.",
                  confirmLabel: "Change role",
                }))
              ) {
                return;
              }
              changeRole.mutate({ userId: m.user_id, role });
            }}
          >
            {grantable.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        ) : (
          <span className="badge" aria-label={`Role of ${m.email}: ${m.role}`}>
            {m.role}
          </span>
        ),
    },
    { id: "since", header: "Member since", cell: (m) => formatDateTime(Date.parse(m.created_at), undefined, false) },
    {
      id: "actions",
      header: "Actions",
      headerHidden: true,
      className: "actions",
      // You leave instead of removing yourself.
      cell: (m) =>
        canManageMember(myRole, m.role) && !isSelf(m) ? (
          <Button
            size="sm"
            variant="danger"
            aria-label={`Remove ${m.email}`}
            disabled={remove.isPending}
            onClick={async () => {
              const theirs = liveKeysOf(keys.data?.data ?? [], m.user_id);
              const choice = { revokeKeys: theirs.length > 0 };
              const ok = await confirm({
                title: `Remove ${m.email} from ${workspace.name}?`,
                message: (
                  <>
                    They lose access at once, and the invitations they sent are revoked.
                    {theirs.length > 0 ? <RevokeKeysChoice keys={theirs} choice={choice} /> : null}
                  </>
                ),
                confirmLabel: "Remove",
              });
              if (!ok) return;
              changeRole.reset();
              leave.reset();
              remove.mutate({ userId: m.user_id, revokeKeys: theirs.length > 0 && choice.revokeKeys });
            }}
          >
            Remove
          </Button>
        ) : null,
    },
  ];

  return (
    <section className="card stack" aria-labelledby="members-title">
      <div className="section-header">
        <h2 id="members-title">Members</h2>
        <p className="muted small">
          {ROLES.map((r) => (
            <span key={r.role}>
              <strong>{r.role}</strong>: {r.description.toLowerCase()}.{" "}
            </span>
          ))}
        </p>
      </div>
      {mutationError ? (
        <Alert testId="members-error">{toUserMessage(mutationError)}</Alert>
      ) : null}
      {remove.data ? (
        <Alert tone="success" testId="member-removed">
          {removalSummary(remove.data)}
        </Alert>
      ) : null}
      <DataTable
        caption="Members and their roles"
        testId="members-table"
        loading={members.isPending}
        loadingLabel="Loading members"
        error={members.error}
        errorTitle="Could not load the members"
        empty={<EmptyState title="No members">Invite someone from the Invitations page.</EmptyState>}
        rows={members.data?.data ?? []}
        rowKey={(m) => m.user_id}
        rowProps={(m) => ({ className: isSelf(m) ? "is-self" : undefined })}
        columns={columns}
      />
      <div className="row">
        <Button
          variant="danger"
          size="sm"
          disabled={leave.isPending}
          onClick={async () => {
            const ok = await confirm({
              title: `Leave ${workspace.name}?`,
              message: "You will need a new invitation to come back.",
              confirmLabel: "Leave",
            });
            if (!ok) return;
            changeRole.reset();
            remove.reset();
            leave.mutate(undefined, { onSuccess: () => navigate("/", { replace: true }) });
          }}
        >
          Leave workspace
        </Button>
        <span className="muted small">The last owner cannot leave: make someone else owner first.</span>
      </div>
      {confirmDialog}
    </section>
  );
}

/** The live keys `userId` created. */
export function liveKeysOf(keys: readonly ApiKey[], userId: string): ApiKey[] {
  return keys.filter((k) => k.created_by === userId && !k.revoked_at);
}

/** What removing a member ended besides their access, in a sentence. */
export function removalSummary(r: MemberRemoved): string {
  const parts = [
    r.invitations_revoked ? `${r.invitations_revoked} pending invitation${r.invitations_revoked === 1 ? "" : "s"}` : "",
    r.keys_revoked ? `${r.keys_revoked} API key${r.keys_revoked === 1 ? "" : "s"}` : "",
  ].filter(Boolean);
  return parts.length ? `Member removed, with ${parts.join(" and ")} they created revoked.` : "Member removed.";
}

/**
 * In the removal question: the keys the member created (they belong to the workspace and keep
 * working unless revoked), with the choice to revoke them too, checked by default.
 */
function RevokeKeysChoice({ keys, choice }: { keys: ApiKey[]; choice: { revokeKeys: boolean } }): ReactElement {
  const [checked, setChecked] = useState(choice.revokeKeys);
  return (
    <label className="check revoke-keys">
      <input
        type="checkbox"
        checked={checked}
        onChange={(e) => {
          choice.revokeKeys = e.target.checked;
          setChecked(e.target.checked);
        }}
      />
      Also revoke the {keys.length === 1 ? "API key" : `${keys.length} API keys`} they created (
      {keys.map((k) => k.name).join(", ")}); agents using {keys.length === 1 ? "it" : "them"} will be refused.
    </label>
  );
}
