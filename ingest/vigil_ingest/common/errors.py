"""Errors of the ingest path.

The hierarchy::

    IngestError
     ├── Rejected              the client's fault; the gateway answers with .status
     │    ├── BadRequest            400, names the bad line or field and the reason
     │    ├── Unauthorized          401, unknown, malformed or revoked key
     │    ├── Forbidden             403, the key lacks the ingest scope
     │    │    └── WorkspaceSuspended  403, a platform operator suspended the key's workspace
     │    ├── PayloadTooLarge       413, body (or decompressed body) over the workspace limit
     │    ├── UnsupportedMediaType  415, an encoding or format we do not read
     │    └── RateLimited           429, over a workspace limit, names it, carries Retry-After
     ├── Retryable             a dependency (Kafka, PostgreSQL, storage) cannot take it now:
     │                         503 + Retry-After at the gateway, backoff in the consumer
     ├── Poison                storage refused a record for good: it goes to the dead-letter
     │                         topic with the reason in a header
     └── WorkspaceDeleted      storage refused a batch because its workspace was deleted
                               (410): the consumer drops it, on purpose
"""

from __future__ import annotations


class IngestError(Exception):
    """Base class of every error the ingest path raises on purpose."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class Rejected(IngestError):
    """The request is wrong; sending it again unchanged will fail again."""

    status = 400
    code = "bad_request"


class BadRequest(Rejected):
    """The body or a parameter is malformed."""

    status = 400
    code = "bad_data"


class Unauthorized(Rejected):
    """No key, or a key that resolves to no live workspace."""

    status = 401
    code = "unauthorized"


class Forbidden(Rejected):
    """The key is valid but may not write."""

    status = 403
    code = "forbidden"


class WorkspaceSuspended(Forbidden):
    """The key's workspace is suspended: its writes are refused until it is resumed."""

    code = "workspace_suspended"


class PayloadTooLarge(Rejected):
    """The body, read or decompressed, is over the workspace's max_body_bytes."""

    status = 413
    code = "payload_too_large"


class UnsupportedMediaType(Rejected):
    """A Content-Encoding or payload format the endpoint does not read."""

    status = 415
    code = "unsupported_media_type"


class RateLimited(Rejected):
    """Over a workspace limit; ``limit`` names it, ``retry_after`` says when to come back."""

    status = 429
    code = "limit_exceeded"

    def __init__(self, message: str, *, limit: str, retry_after: int) -> None:
        super().__init__(message)
        self.limit = limit
        self.retry_after = retry_after


class Retryable(IngestError):
    """A dependency is down or overloaded; the same request may succeed later."""

    status = 503
    code = "unavailable"

    def __init__(self, message: str, *, retry_after: int = 5) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class Poison(IngestError):
    """Storage refused a record permanently; ``message`` is storage's reason."""


class WorkspaceDeleted(IngestError):
    """The batch's workspace was deleted; storage takes none of its data any more (410)."""
