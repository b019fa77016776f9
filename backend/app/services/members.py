"""Members, roles and invitations."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import ColumnElement, func, select
from sqlalchemy.orm import Session

from app.core import keys, security
from app.core.config import settings
from app.core.errors import BadRequest, Conflict, Forbidden, NotFound
from app.core.permissions import Permission, allows, outranks_or_equals
from app.models import ApiKey, Invitation, Membership, Role, User, Workspace
from app.schemas.member import InvitationState
from app.services import api_keys, audit, plans, workspaces
from app.services.audit import Actor


def list_members(db: Session, *, workspace_id: uuid.UUID) -> list[tuple[Membership, User]]:
    rows = db.execute(
        select(Membership, User)
        .join(User, User.id == Membership.user_id)
        .where(Membership.workspace_id == workspace_id)
        .order_by(Membership.created_at, User.email)
    ).all()
    return [(m, u) for m, u in rows]


def _owner_count(db: Session, *, workspace_id: uuid.UUID) -> int:
    return (
        db.scalar(
            select(func.count())
            .select_from(Membership)
            .where(Membership.workspace_id == workspace_id, Membership.role == Role.owner)
        )
        or 0
    )


def _member_count(db: Session, *, workspace_id: uuid.UUID) -> int:
    return (
        db.scalar(
            select(func.count())
            .select_from(Membership)
            .where(Membership.workspace_id == workspace_id)
        )
        or 0
    )


def _pending_count(db: Session, *, workspace_id: uuid.UUID, now: datetime) -> int:
    return (
        db.scalar(
            select(func.count())
            .select_from(Invitation)
            .where(
                Invitation.workspace_id == workspace_id,
                Invitation.accepted_at.is_(None),
                Invitation.revoked_at.is_(None),
                Invitation.expires_at > now,
            )
        )
        or 0
    )


def _lock_members(db: Session, *, workspace_id: uuid.UUID) -> None:
    """Serialise every change of the workspace's memberships (roles, removals, leaving) on the
    workspace's row, so that checks like "is this the last owner?" see every change committed
    before them: two owners demoting each other at once cannot leave the workspace ownerless."""
    db.execute(select(Workspace.id).where(Workspace.id == workspace_id).with_for_update())


def _get_membership(db: Session, *, workspace_id: uuid.UUID, user_id: uuid.UUID) -> Membership:
    """The membership, read fresh under the workspace's lock (``_lock_members``)."""
    _lock_members(db, workspace_id=workspace_id)
    membership = db.get(Membership, (workspace_id, user_id), populate_existing=True)
    if membership is None:
        raise NotFound("Member not found")
    return membership


def _revoke_invitations_of(
    db: Session,
    *,
    workspace_id: uuid.UUID,
    sent_by: ColumnElement[bool],
    above: Role | None,
    reason: str,
    actor: Actor,
) -> int:
    """Revoke the pending invitations sent to the workspace by ``sent_by`` (a person or a
    service token) that they may no longer send: all of them (``above`` None), or those
    offering a role above ``above``."""
    now = datetime.now(UTC)
    pending = db.scalars(
        select(Invitation)
        .where(
            Invitation.workspace_id == workspace_id,
            sent_by,
            Invitation.accepted_at.is_(None),
            Invitation.revoked_at.is_(None),
            Invitation.expires_at > now,
        )
        .with_for_update()
    ).all()
    revoked = 0
    for invitation in pending:
        if above is not None and outranks_or_equals(above, invitation.role):
            continue
        _revoke(db, invitation, actor=actor, reason=reason)
        revoked += 1
    return revoked


def _revoke(db: Session, invitation: Invitation, *, actor: Actor, reason: str) -> None:
    invitation.revoked_at = datetime.now(UTC)
    audit.record(
        db,
        actor=actor,
        action="invitation.revoke",
        workspace_id=invitation.workspace_id,
        target_type="invitation",
        target_id=invitation.id,
        details={"email": invitation.email, "role": invitation.role.value, "reason": reason},
    )


def _revoke_lost_invitations(
    db: Session,
    *,
    workspace_id: uuid.UUID,
    user_id: uuid.UUID,
    role: Role | None,
    reason: str,
    actor: Actor,
) -> int:
    """After ``user_id``'s role became ``role`` (None: no longer a member), revoke the pending
    invitations they sent that the new role could not send."""
    may_invite = role is not None and allows(role, Permission.MEMBERS_MANAGE)
    return _revoke_invitations_of(
        db,
        workspace_id=workspace_id,
        sent_by=Invitation.invited_by == user_id,
        above=role if may_invite else None,
        reason=reason,
        actor=actor,
    )


def revoke_invitations_of_key(db: Session, *, key: ApiKey, actor: Actor) -> int:
    """A service token was revoked: revoke the pending invitations it sent."""
    return _revoke_invitations_of(
        db,
        workspace_id=key.workspace_id,
        sent_by=Invitation.invited_by_key_id == key.id,
        above=None,
        reason="inviter_token_revoked",
        actor=actor,
    )


def _a(role: Role, *, capital: bool = False) -> str:
    """The role's name with its indefinite article: ``an admin``, ``a viewer``."""
    article = "an" if role.value[0] in "aeiou" else "a"
    return f"{article.capitalize() if capital else article} {role.value}"


def _check_can_grant(actor_role: Role, role: Role) -> None:
    if not outranks_or_equals(actor_role, role):
        raise Forbidden(f"{_a(actor_role, capital=True)} cannot grant the {role.value} role")


def change_role(
    db: Session,
    *,
    workspace_id: uuid.UUID,
    user_id: uuid.UUID,
    role: Role,
    actor_role: Role,
    actor: Actor,
) -> tuple[Membership, User]:
    membership = _get_membership(db, workspace_id=workspace_id, user_id=user_id)
    _check_can_grant(actor_role, role)
    if not outranks_or_equals(actor_role, membership.role):
        raise Forbidden(
            f"{_a(actor_role, capital=True)} cannot change the role of {_a(membership.role)}"
        )
    if (
        membership.role == Role.owner
        and role != Role.owner
        and _owner_count(db, workspace_id=workspace_id) == 1
    ):
        raise Conflict("A workspace needs at least one owner", code="last_owner")
    old = membership.role
    membership.role = role
    revoked = _revoke_lost_invitations(
        db,
        workspace_id=workspace_id,
        user_id=user_id,
        role=role,
        reason="inviter_role_lowered",
        actor=actor,
    )
    audit.record(
        db,
        actor=actor,
        action="member.role_change",
        workspace_id=workspace_id,
        target_type="user",
        target_id=user_id,
        details={"from": old.value, "to": role.value, "invitations_revoked": revoked},
    )
    db.commit()
    user = db.get(User, user_id)
    assert user is not None
    return membership, user


@dataclass(frozen=True)
class Removal:
    """What removing a member ended besides the membership."""

    invitations_revoked: int
    keys_revoked: int


def remove_member(
    db: Session,
    *,
    workspace_id: uuid.UUID,
    user_id: uuid.UUID,
    actor_role: Role,
    actor: Actor,
    revoke_keys: bool = False,
) -> Removal:
    """Remove a member. Their pending invitations are revoked; the API keys they created
    belong to the workspace and keep working unless ``revoke_keys``."""
    membership = _get_membership(db, workspace_id=workspace_id, user_id=user_id)
    if not outranks_or_equals(actor_role, membership.role):
        raise Forbidden(f"{_a(actor_role, capital=True)} cannot remove {_a(membership.role)}")
    if membership.role == Role.owner and _owner_count(db, workspace_id=workspace_id) == 1:
        raise Conflict("A workspace needs at least one owner", code="last_owner")
    db.delete(membership)
    invitations = _revoke_lost_invitations(
        db,
        workspace_id=workspace_id,
        user_id=user_id,
        role=None,
        reason="inviter_removed",
        actor=actor,
    )
    keys = (
        api_keys.revoke_keys_of(
            db, workspace_id=workspace_id, user_id=user_id, reason="creator_removed", actor=actor
        )
        if revoke_keys
        else 0
    )
    audit.record(
        db,
        actor=actor,
        action="member.remove",
        workspace_id=workspace_id,
        target_type="user",
        target_id=user_id,
        details={
            "role": membership.role.value,
            "invitations_revoked": invitations,
            "keys_revoked": keys,
            "keys_kept": api_keys.count_live_keys_of(
                db, workspace_id=workspace_id, user_id=user_id
            ),
        },
    )
    db.commit()
    return Removal(invitations, keys)


def leave(db: Session, *, workspace_id: uuid.UUID, user_id: uuid.UUID, actor: Actor) -> None:
    """Remove yourself from a workspace (any role; the last owner must hand over first)."""
    membership = _get_membership(db, workspace_id=workspace_id, user_id=user_id)
    if membership.role == Role.owner and _owner_count(db, workspace_id=workspace_id) == 1:
        raise Conflict(
            "You are the last owner: make someone else owner first, or delete the workspace",
            code="last_owner",
        )
    db.delete(membership)
    revoked = _revoke_lost_invitations(
        db,
        workspace_id=workspace_id,
        user_id=user_id,
        role=None,
        reason="inviter_left",
        actor=actor,
    )
    audit.record(
        db,
        actor=actor,
        action="member.leave",
        workspace_id=workspace_id,
        target_type="user",
        target_id=user_id,
        details={"role": membership.role.value, "invitations_revoked": revoked},
    )
    db.commit()


def list_invitations(db: Session, *, workspace_id: uuid.UUID) -> list[Invitation]:
    return list(
        db.scalars(
            select(Invitation)
            .where(Invitation.workspace_id == workspace_id)
            .order_by(Invitation.created_at.desc())
        ).all()
    )


def create_invitation(
    db: Session,
    *,
    workspace_id: uuid.UUID,
    email: str,
    role: Role,
    actor_role: Role,
    actor: Actor,
) -> tuple[Invitation, str]:
    """An invitation and its code; the code is returned once and stored hashed."""
    _check_can_grant(actor_role, role)
    email = email.strip().lower()
    already = db.scalar(
        select(Membership)
        .join(User, User.id == Membership.user_id)
        .where(Membership.workspace_id == workspace_id, func.lower(User.email) == email)
    )
    if already is not None:
        raise Conflict(f"{email} is already a member of this workspace", code="already_member")
    # One usable invitation per address: lock the workspace row so two requests at once
    # cannot both find none pending.
    db.execute(select(Workspace.id).where(Workspace.id == workspace_id).with_for_update())
    now = datetime.now(UTC)
    pending = db.scalar(
        select(Invitation.id).where(
            Invitation.workspace_id == workspace_id,
            Invitation.email == email,
            Invitation.accepted_at.is_(None),
            Invitation.revoked_at.is_(None),
            Invitation.expires_at > now,
        )
    )
    if pending is not None:
        raise Conflict(
            f"{email} already has a pending invitation to this workspace: reuse the link "
            "sent with it, or revoke it to create a new one",
            code="invitation_pending",
        )
    # Pending invitations count: each may become a member.
    plans.require_room(
        db,
        workspace_id=workspace_id,
        limit="max_members",
        used=_member_count(db, workspace_id=workspace_id)
        + _pending_count(db, workspace_id=workspace_id, now=now),
    )
    code = security.new_invitation_code()
    invitation = Invitation(
        workspace_id=workspace_id,
        email=email,
        role=role,
        code_hash=security.sha256_hex(code),
        invited_by=actor.user_id,
        invited_by_key_id=actor.key_id,
        expires_at=now + timedelta(days=settings.INVITATION_EXPIRE_DAYS),
    )
    db.add(invitation)
    db.flush()
    audit.record(
        db,
        actor=actor,
        action="invitation.create",
        workspace_id=workspace_id,
        target_type="invitation",
        target_id=invitation.id,
        details={"email": email, "role": role.value},
    )
    db.commit()
    return invitation, code


def revoke_invitation(
    db: Session, *, workspace_id: uuid.UUID, invitation_id: uuid.UUID, actor: Actor
) -> Invitation:
    invitation = db.get(Invitation, invitation_id)
    if invitation is None or invitation.workspace_id != workspace_id:
        raise NotFound("Invitation not found")
    if invitation.accepted_at is None and invitation.revoked_at is None:
        invitation.revoked_at = datetime.now(UTC)
        audit.record(
            db,
            actor=actor,
            action="invitation.revoke",
            workspace_id=workspace_id,
            target_type="invitation",
            target_id=invitation.id,
            details={"email": invitation.email},
        )
        db.commit()
    return invitation


def invitation_state(invitation: Invitation, *, now: datetime) -> InvitationState:
    """Where an invitation stands: accepted, revoked, expired or pending (in that precedence)."""
    if invitation.accepted_at is not None:
        return "accepted"
    if invitation.revoked_at is not None:
        return "revoked"
    if invitation.expires_at <= now:
        return "expired"
    return "pending"


def find_invitation(db: Session, *, code: str) -> tuple[Invitation, Workspace, User | None]:
    """The invitation a code names, its workspace and who sent it; no session needed.

    The code is the secret (144 random bits, stored hashed), so the only lookup is by its
    hash: an unknown code, or one whose workspace was deleted, is the same 404.
    """
    row = db.execute(
        select(Invitation, Workspace)
        .join(Workspace, Workspace.id == Invitation.workspace_id)
        .where(
            Invitation.code_hash == security.sha256_hex(code),
            Workspace.deleted_at.is_(None),
        )
    ).first()
    if row is None:
        raise NotFound("Invitation not found: check the link, or ask for a new invitation")
    invitation, workspace = row
    inviter = db.get(User, invitation.invited_by) if invitation.invited_by else None
    return invitation, workspace, inviter


def _sender_may_still_invite(db: Session, invitation: Invitation) -> bool:
    """Whether the member or service token that sent ``invitation`` may still send it."""
    if invitation.invited_by is not None:
        role = workspaces.get_role(
            db, workspace_id=invitation.workspace_id, user_id=invitation.invited_by
        )
    elif invitation.invited_by_key_id is not None:
        key = db.get(ApiKey, invitation.invited_by_key_id)
        live = key is not None and key.revoked_at is None
        role = keys.kind_of(key.scope).role if key is not None and live else None
    else:  # sent by an account deleted since
        return True
    return (
        role is not None
        and allows(role, Permission.MEMBERS_MANAGE)
        and outranks_or_equals(role, invitation.role)
    )


def accept_invitation(
    db: Session, *, code: str, user: User, actor: Actor
) -> tuple[Workspace, Role]:
    """Join the workspace named by the code; the signed-in email must match the invitation."""
    invitation = db.scalar(
        select(Invitation)
        .where(Invitation.code_hash == security.sha256_hex(code))
        .with_for_update()
    )
    now = datetime.now(UTC)
    if invitation is None or invitation.revoked_at is not None:
        raise NotFound("Invitation not found")
    if invitation.accepted_at is not None:
        raise Conflict("This invitation has already been used", code="invitation_used")
    if invitation.expires_at <= now:
        raise BadRequest(
            "This invitation has expired; ask for a new one", code="invitation_expired"
        )
    if invitation.email != user.email.lower():
        raise Forbidden("This invitation was sent to a different email address")
    workspace = db.get(Workspace, invitation.workspace_id)
    if workspace is None or workspace.deleted_at is not None:
        raise NotFound("Invitation not found")
    if db.get(Membership, (workspace.id, user.id)) is not None:
        raise Conflict("You are already a member of this workspace", code="already_member")
    if not _sender_may_still_invite(db, invitation):
        # An invitation never outlives its sender's right to invite (they are revoked when
        # that right is lost; this covers the rest).
        _revoke(db, invitation, actor=actor, reason="inviter_no_longer_allowed")
        db.commit()
        raise Conflict(
            "This invitation is no longer valid: the person who sent it can no longer "
            "invite to this workspace. Ask for a new invitation",
            code="invitation_revoked",
        )
    # This invitation was counted when it was sent; the limit may have been lowered since.
    plans.require_room(
        db,
        workspace_id=workspace.id,
        limit="max_members",
        used=_member_count(db, workspace_id=workspace.id),
    )
    db.add(Membership(workspace_id=workspace.id, user_id=user.id, role=invitation.role))
    invitation.accepted_at = now
    invitation.accepted_by = user.id
    audit.record(
        db,
        actor=actor,
        action="invitation.accept",
        workspace_id=workspace.id,
        target_type="invitation",
        target_id=invitation.id,
        details={"email": invitation.email, "role": invitation.role.value},
    )
    db.commit()
    return workspace, invitation.role
