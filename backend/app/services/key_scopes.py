"""What an API key resolved to, remembered for a second by each backend process.

Every query by key needs the key's workspace and that workspace's limits: one statement on a
worker thread, which at a few hundred queries a second costs the backend more than the rest of
the request (the thread hop, the connection, the interpreter lock shared with the event loop).
A process keeps a key's successful resolution for ``VIGIL_KEY_SCOPE_CACHE_SECONDS`` (1 s; 0
turns it off). Only successes are kept: a refused key is looked up, and audited, every time.

Nothing stale outlives a change made through this process: committing a change to a key, a
workspace, its limits or a plan forgets every entry (``generation`` moves on), so a revoked
key, a suspended workspace or new limits apply from the next query. A change committed by
another process (``vigil-admin``, a second backend) applies within the window.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from sqlalchemy import event
from sqlalchemy.orm import ORMExecuteState, Session, UOWTransaction

from app.models import ApiKey, Plan, Workspace, WorkspaceLimits

V = TypeVar("V")

# Rows whose change can change what a key resolves to.
WATCHED: tuple[type[Any], ...] = (ApiKey, Workspace, WorkspaceLimits, Plan)
WATCHED_TABLES = frozenset(model.__tablename__ for model in WATCHED)
# An execution option for a bulk UPDATE of a watched table that changes nothing a key
# resolves to (a key's last use): it does not forget the cache.
SCOPE_NEUTRAL = "vigil_scope_neutral"
_CHANGED = "vigil_key_scopes_changed"
MAX_ENTRIES = 10_000


class _Generation:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.value = 0

    def advance(self) -> None:
        with self._lock:
            self.value += 1


_generation = _Generation()


def generation() -> int:
    """The current generation: an entry stored under an older one is never returned."""
    return _generation.value


def forget_all() -> None:
    _generation.advance()


def credential_key(how: str, value: str) -> str:
    """The cache's key for a credential: a digest, and how it was sent (a service token is
    accepted only as a bearer token, so the same text sent otherwise is another entry)."""
    return how + ":" + hashlib.sha256(value.encode()).hexdigest()


@dataclass(frozen=True)
class _Entry(Generic[V]):
    value: V
    expires: float
    generation: int


class KeyScopeCache(Generic[V]):
    """Successful key resolutions for ``seconds``, forgotten at any watched change."""

    def __init__(self, seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds
        self._clock = clock
        self._entries: dict[str, _Entry[V]] = {}

    def get(self, key: str) -> V | None:
        entry = self._entries.get(key)
        if entry is None:
            return None
        if entry.generation != generation() or entry.expires <= self._clock():
            self._entries.pop(key, None)
            return None
        return entry.value

    def put(self, key: str, value: V, resolved_in: int) -> None:
        """Keep ``value``, resolved from the database in generation ``resolved_in`` (read
        before the lookup: a change committed meanwhile makes it stale at once)."""
        if self.seconds <= 0 or resolved_in != generation():
            return
        now = self._clock()
        if len(self._entries) >= MAX_ENTRIES:
            self._entries = {k: e for k, e in self._entries.items() if e.expires > now}
            if len(self._entries) >= MAX_ENTRIES:
                self._entries.clear()
        self._entries[key] = _Entry(value, now + self.seconds, resolved_in)


@event.listens_for(Session, "after_flush")
def _note_flushed_changes(session: Session, _context: UOWTransaction) -> None:
    # after_flush still sees the flush's new, dirty and deleted objects
    for obj in (*session.new, *session.dirty, *session.deleted):
        if isinstance(obj, WATCHED):
            session.info[_CHANGED] = True
            return


@event.listens_for(Session, "do_orm_execute")
def _note_bulk_changes(state: ORMExecuteState) -> None:
    if not (state.is_update or state.is_delete) or state.execution_options.get(SCOPE_NEUTRAL):
        return
    table = getattr(state.statement, "table", None)
    if getattr(table, "name", None) in WATCHED_TABLES:
        state.session.info[_CHANGED] = True


# A flag left by a rolled-back change only makes the session's next commit forget too much.
@event.listens_for(Session, "after_commit")
def _forget_on_commit(session: Session) -> None:
    if session.info.pop(_CHANGED, False):
        forget_all()
