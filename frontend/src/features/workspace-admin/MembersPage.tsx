import type { ReactElement } from "react";
import { useNavigate } from "react-router";
import { Alert } from "@/components/ui/Alert";
import { Button } from "@/components/ui/Button";
import { EmptyState } from "@/components/ui/EmptyState";
import { Spinner } from "@/components/ui/Spinner";
import { useConfirm } from "@/components/ui/useConfirm";
import { useCurrentUser } from "@/features/auth/hooks/useAuth";
import { toUserMessage } from "@/lib/apiError";
import { formatDateTime } from "@/lib/time";
import { useCurrentWorkspace } from "@/routes/useWorkspaceContext";
import { useChangeRole, useLeaveWorkspace, useMembers, useRemoveMember } from "./hooks/useMembers";
import { canManageMember, grantableRoles, isRole, ROLES } from "./roles";

/** Settings › Members: who is in the workspace, their role (changeable by admins), remove, leave. */
export function MembersPage(): ReactElement {
  const workspace = useCurrentWorkspace();
  const me = useCurrentUser();
  const members = useMembers(workspace.id);
  const changeRole = useChangeRole(workspace.id);
  const remove = useRemoveMember(workspace.id);
  const leave = useLeaveWorkspace(workspace.id);
  const [confirm, confirmDialog] = useConfirm();
  const navigate = useNavigate();
  const myRole = workspace.role;
  const grantable = grantableRoles(myRole);
  const mutationError = changeRole.error ?? remove.error ?? leave.error;

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
      {members.isPending ? (
        <Spinner label="Loading members" />
      ) : members.isError ? (
        <Alert title="Could not load the members">{toUserMessage(members.error)}</Alert>
      ) : members.data.data.length === 0 ? (
        <EmptyState title="No members">Invite someone from the Invitations page.</EmptyState>
      ) : (
        <table className="data-table" data-testid="members-table">
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Name</th>
              <th scope="col">Role</th>
              <th scope="col">Member since</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {members.data.data.map((m) => {
              const self = m.user_id === me.data?.id;
              // Your own role can be lowered too (the backend keeps at least one owner); you leave instead of removing yourself.
              const manageable = canManageMember(myRole, m.role);
              return (
                <tr key={m.user_id} className={self ? "is-self" : undefined}>
                  <td>{m.email}</td>
                  <td>{m.full_name || <span className="muted">–</span>}</td>
                  <td>
                    {manageable ? (
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
                            self &&
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
                    )}
                  </td>
                  <td>{formatDateTime(Date.parse(m.created_at), undefined, false)}</td>
                  <td className="actions">
                    {manageable && !self ? (
                      <Button
                        size="sm"
                        variant="danger"
                        aria-label={`Remove ${m.email}`}
                        disabled={remove.isPending}
                        onClick={async () => {
                          const ok = await confirm({
                            title: `Remove ${m.email} from ${workspace.name}?`,
                            message: "They lose access at once.",
                            confirmLabel: "Remove",
                          });
                          if (!ok) return;
                          changeRole.reset();
                          leave.reset();
                          remove.mutate(m.user_id);
                        }}
                      >
                        Remove
                      </Button>
                    ) : null}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
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
