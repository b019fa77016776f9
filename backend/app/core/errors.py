"""The error hierarchy services raise; one handler in ``app.main`` maps it to HTTP.

::

    VigilError                 500  internal
    ├── BadRequest             400  bad_request
    ├── Unauthorized           401  unauthorized
    ├── Forbidden              403  forbidden
    ├── NotFound               404  not_found
    ├── Conflict               409  conflict
    ├── FieldInvalid           422  validation_error (one field, shaped like request validation)
    ├── LimitExceeded          429  limit_exceeded   (names the limit, may set Retry-After)
    ├── InvalidValue           422  validation_error (names the field, and the limit if one)
    ├── AbovePlan              422  plan_ceiling     (names each limit set beyond its plan)
    ├── QueryError             400  dql_* / query_error
    ├── QueryRejected          400  storage's code   (a saved query storage refused; line/column)
    ├── StorageUnavailable     502  storage_unavailable
    └── Busy                   503  busy / email_unavailable  (may set Retry-After)

Every response body is ``{"detail": <human text>, "code": <stable code>}`` plus any extra
fields a subclass adds (``limit``, ``position``).
"""

from __future__ import annotations

from typing import Any


class VigilError(Exception):
    """Base class: an error with an HTTP status, a human detail and a stable code."""

    status_code = 500
    code = "internal"

    def __init__(self, detail: str, *, code: str | None = None) -> None:
        super().__init__(detail)
        self.detail = detail
        if code is not None:
            self.code = code

    def body(self) -> dict[str, Any]:
        return {"detail": self.detail, "code": self.code}

    def headers(self) -> dict[str, str] | None:
        return None


class BadRequest(VigilError):
    """The request is well-formed but asks for something impossible."""

    status_code = 400
    code = "bad_request"


class Unauthorized(VigilError):
    """No valid credentials were presented."""

    status_code = 401
    code = "unauthorized"

    def headers(self) -> dict[str, str] | None:
        return {"WWW-Authenticate": "Bearer"}


class Forbidden(VigilError):
    """The caller is known but their role or key scope does not allow this."""

    status_code = 403
    code = "forbidden"


class NotFound(VigilError):
    """The resource does not exist, or the caller may not know that it does."""

    status_code = 404
    code = "not_found"


class Conflict(VigilError):
    """The request conflicts with the current state (duplicate, last owner, …)."""

    status_code = 409
    code = "conflict"


class FieldInvalid(VigilError):
    """One field of the body is refused by a check that runs after validation (a password
    too easy to guess); the answer looks exactly like a validation error of that field."""

    status_code = 422
    code = "validation_error"

    def __init__(self, field: str, reason: str) -> None:
        self.loc: list[str | int] = ["body", field]
        self.msg = f"Value error, {reason}"
        super().__init__(f"body.{field}: {self.msg}")

    def body(self) -> dict[str, Any]:
        return {
            **super().body(),
            "errors": [{"loc": self.loc, "msg": self.msg, "type": "value_error"}],
        }


class LimitExceeded(VigilError):
    """A named limit was hit; ``limit`` says which one."""

    status_code = 429
    code = "limit_exceeded"

    def __init__(self, detail: str, *, limit: str, retry_after: int | None = None) -> None:
        super().__init__(detail)
        self.limit = limit
        self.retry_after = retry_after

    def body(self) -> dict[str, Any]:
        return {**super().body(), "limit": self.limit}

    def headers(self) -> dict[str, str] | None:
        return {"Retry-After": str(self.retry_after)} if self.retry_after else None


class AbovePlan(VigilError):
    """Limits set beyond their plan's bounds: ``problems`` is (limit, message) for each."""

    status_code = 422
    code = "plan_ceiling"

    def __init__(self, problems: list[tuple[str, str]]) -> None:
        assert problems
        detail = problems[0][1]
        if len(problems) > 1:
            detail += f" (and {len(problems) - 1} more)"
        super().__init__(detail)
        self.problems = problems

    def body(self) -> dict[str, Any]:
        return {
            **super().body(),
            "limit": self.problems[0][0],
            "errors": [
                {"loc": ["body", limit], "msg": msg, "type": self.code}
                for limit, msg in self.problems
            ],
        }


class InvalidValue(VigilError):
    """A field's value is well-formed but not allowed here (above a limit, an unknown id…)."""

    status_code = 422
    code = "validation_error"

    def __init__(self, detail: str, *, field: str, limit: str | None = None) -> None:
        super().__init__(f"{field}: {detail}")
        self.field = field
        self.limit = limit

    def body(self) -> dict[str, Any]:
        body = {**super().body(), "field": self.field}
        if self.limit is not None:
            body["limit"] = self.limit
        return body


class QueryError(VigilError):
    """A query was refused; ``position`` is the byte offset of the problem when known."""

    status_code = 400
    code = "query_error"

    def __init__(self, detail: str, *, code: str | None = None, position: int | None = None):
        super().__init__(detail, code=code)
        self.position = position

    def body(self) -> dict[str, Any]:
        body = super().body()
        if self.position is not None:
            body["position"] = self.position
        return body


class StorageUnavailable(VigilError):
    """vigil-storage could not be reached or answered with a server error."""

    status_code = 502
    code = "storage_unavailable"


class QueryRejected(VigilError):
    """Storage refused a query someone wants to save; ``code`` is storage's (``dql.parse_error``)
    and ``position`` its ``{line, column, start, end}`` when it named one."""

    status_code = 400

    def __init__(
        self, detail: str, *, code: str, field: str, position: dict[str, int] | None = None
    ) -> None:
        super().__init__(f"{field}: {detail}", code=code)
        self.field = field
        self.position = position

    def body(self) -> dict[str, Any]:
        body = {**super().body(), "field": self.field}
        if self.position is not None:
            body["position"] = self.position
        return body


class Busy(VigilError):
    """The server cannot take this now (a bounded queue is full, a service it needs is not
    configured); ``retry_after`` says when to try again, if it will help."""

    status_code = 503
    code = "busy"

    def __init__(self, detail: str, *, code: str | None = None, retry_after: int | None = None):
        super().__init__(detail, code=code)
        self.retry_after = retry_after

    def headers(self) -> dict[str, str] | None:
        return {"Retry-After": str(self.retry_after)} if self.retry_after else None
