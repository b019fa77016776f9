import { useState, type FormEvent, type ReactElement } from "react";
import { useCurrentWorkspace } from "@/api/useCurrentWorkspace";
import { canAdmin } from "@/api/useWorkspaces";
import { Alert } from "@/components/ui/Alert";
import { Button } from "@/components/ui/Button";
import { CopyButton } from "@/components/ui/CopyButton";
import { DataTable, type DataTableColumn } from "@/components/ui/DataTable";
import { EmptyState } from "@/components/ui/EmptyState";
import { TextField } from "@/components/ui/TextField";
import { useConfirm } from "@/components/ui/useConfirm";
import { toUserMessage } from "@/lib/apiError";
import { formatDateTime } from "@/lib/time";
import type { Invitation, Role } from "./api";
import { useCreateInvitation, useInvitations, useRevokeInvitation } from "./hooks/useMembers";
import { invitationStatus, inviteLink } from "./inviteLink";
import { grantableRoles, isRole } from "./roles";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const STATUS_BADGE: Record<string, string> = {
  pending: "badge badge-accent",
  accepted: "badge badge-ok",
  revoked: "badge badge-danger",
  expired: "badge",
};

/** Settings › Invitations: invite by email and role, copy the link (shown once), list and revoke. */
export function InvitationsPage(): ReactElement {
  const workspace = useCurrentWorkspace();
  const admin = canAdmin(workspace.role);
  const invitations = useInvitations(workspace.id, admin);
  const create = useCreateInvitation(workspace.id);
  const revoke = useRevokeInvitation(workspace.id);
  const [confirm, confirmDialog] = useConfirm();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("viewer");
  const [emailError, setEmailError] = useState<string>();

  if (!admin) {
    return (
      <section className="card stack" aria-labelledby="invitations-title">
        <h2 id="invitations-title">Invitations</h2>
        <Alert tone="info">Only owners and admins can invite people. Ask one of them to send you an invitation link.</Alert>
      </section>
    );
  }

  const onInvite = (e: FormEvent): void => {
    e.preventDefault();
    if (!EMAIL.test(email.trim())) {
      setEmailError("Enter the email address the invitee will sign in with.");
      return;
    }
    setEmailError(undefined);
    revoke.reset();
    create.mutate({ email: email.trim(), role }, { onSuccess: () => setEmail("") });
  };

  const created = create.data;
  const link = created ? inviteLink(window.location.origin, created.code) : undefined;

  const columns: DataTableColumn<Invitation>[] = [
    { id: "email", header: "Email", cell: (inv) => inv.email },
    { id: "role", header: "Role", cell: (inv) => inv.role },
    {
      id: "status",
      header: "Status",
      cell: (inv) => {
        const status = invitationStatus(inv);
        return <span className={STATUS_BADGE[status]}>{status}</span>;
      },
    },
    { id: "sent", header: "Sent", cell: (inv) => formatDateTime(Date.parse(inv.created_at), undefined, false) },
    { id: "expires", header: "Expires", cell: (inv) => formatDateTime(Date.parse(inv.expires_at), undefined, false) },
    {
      id: "actions",
      header: "Actions",
      headerHidden: true,
      className: "actions",
      cell: (inv) =>
        invitationStatus(inv) === "pending" ? (
          <Button
            size="sm"
            variant="danger"
            aria-label={`Revoke invitation for ${inv.email}`}
            disabled={revoke.isPending}
            onClick={async () => {
              const ok = await confirm({
                title: `Revoke the invitation for ${inv.email}?`,
                message: "The link stops working.",
                confirmLabel: "Revoke",
              });
              if (!ok) return;
              create.reset();
              revoke.mutate(inv.id);
            }}
          >
            Revoke
          </Button>
        ) : null,
    },
  ];

  return (
    <>
      <section className="card stack" aria-labelledby="invite-title">
        <h2 id="invite-title">Invite someone</h2>
        <form className="form-row" onSubmit={onInvite} noValidate aria-label="Invite someone">
          <TextField
            label="Email"
            name="invite_email"
            type="email"
            autoComplete="off"
            value={email}
            error={emailError}
            onChange={(e) => setEmail(e.target.value)}
          />
          <label className="field">
            Role
            <select
              name="invite_role"
              value={role}
              onChange={(e) => {
                if (isRole(e.target.value)) setRole(e.target.value);
              }}
            >
              {grantableRoles(workspace.role).map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          </label>
          <Button type="submit" variant="primary" disabled={create.isPending}>
            Create invitation
          </Button>
        </form>
        {create.isError ? <Alert>{toUserMessage(create.error)}</Alert> : null}
        {created && link ? (
          <Alert tone="success" title={`Invitation for ${created.email} (${created.role})`} testId="new-invitation">
            <p>Send this link to {created.email}; it is shown only now and works once, until {formatDateTime(Date.parse(created.expires_at), undefined, false)}.</p>
            <div className="invite-link">
              <input readOnly value={link} aria-label="Invitation link" data-testid="invite-link" onFocus={(e) => e.target.select()} />
              <CopyButton text={link} label="Copy invitation link" />
            </div>
          </Alert>
        ) : null}
      </section>
      <section className="card stack" aria-labelledby="invitations-title">
        <h2 id="invitations-title">Invitations</h2>
        {revoke.isError ? <Alert>{toUserMessage(revoke.error)}</Alert> : null}
        <DataTable
          caption="Invitations and their status"
          testId="invitations-table"
          loading={invitations.isPending}
          loadingLabel="Loading invitations"
          error={invitations.error}
          errorTitle="Could not load the invitations"
          empty={<EmptyState title="No invitations yet">Invite a colleague above; they join with the role you pick.</EmptyState>}
          rows={invitations.data?.data ?? []}
          rowKey={(inv) => inv.id}
          columns={columns}
        />
      </section>
      {confirmDialog}
    </>
  );
}
