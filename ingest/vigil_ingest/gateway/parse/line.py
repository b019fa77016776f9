"""Influx line protocol validation.

The gateway does not convert anything: it checks that every line parses, counts the points
(one per non-empty, non-comment line), and refuses reserved tag names. A whole-body regular
expression answers the common case (a valid batch) in one C-level pass; only when it fails
does the per-line parser run, to name the first bad line and the reason.

Grammar (as InfluxDB and VictoriaMetrics read it; newlines never occur inside a line)::

    line      = measurement *("," tag_key "=" tag_value) 1*SP fields [1*SP timestamp]
    fields    = field_key "=" field_value *("," field_key "=" field_value)
    value     = float | int "i" | uint "u" | bool | '"' string '"'

Backslash escapes any character in names and tag values; ``#`` starts a comment line.
Sections are separated by spaces only (a tab is an ordinary character, as in InfluxDB and
vigil-storage); leading whitespace and a trailing CR are ignored. Integers must fit 64 bits
and floats must be finite. A field named twice in one line is accepted (InfluxDB keeps the
last value).

Storage's size limits on a series (``common/series_limits.py``: tag name and value length,
tag count, ``<measurement>:<field>`` length) are checked the same way: only lines longer than
256 bytes can break one; bytes methods find those with a run of more than 256 bytes between
separators or more than 64 commas before the fields, and only they go through the exact
parser.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import UTC, datetime

from vigil_ingest.common import series_limits
from vigil_ingest.common.errors import BadRequest
from vigil_ingest.common.tenancy import RESERVED_NAMES, RESERVED_PREFIX, is_reserved

# Unrolled loops with possessive quantifiers: linear time, no backtracking into names.
_MEAS = rb"(?:[^ \t\r\n,\\#]|\\[^\n])[^ \r\n,\\]*+(?:\\[^\n][^ \r\n,\\]*+)*+"
_KEY = rb"(?:[^ \r\n,=\\]|\\[^\n])[^ \r\n,=\\]*+(?:\\[^\n][^ \r\n,=\\]*+)*+"
# At most 200 integer digits and a two-digit exponent: always finite as a float64. Longer
# forms go to the exact parser, which computes the value.
_FLOAT = rb"[-+]?(?:[0-9]{1,200}+(?:\.[0-9]*+)?|\.[0-9]++)(?:[eE][-+]?[0-9]{1,2}+)?(?![0-9])"
# int64 and uint64 ranges, conservatively: longer forms go to the exact parser.
_INT = rb"-?(?:[0-9]{1,18}+|[1-8][0-9]{18})i"
_UINT = rb"(?:[0-9]{1,19}+|1[0-7][0-9]{18})u"
_STRING = rb'"[^"\\\n]*+(?:\\.[^"\\\n]*+)*+"'
_BOOL = rb"true|True|TRUE|t|T|false|False|FALSE|f|F"
_VALUE = (
    rb"(?>"
    + _FLOAT
    + rb"(?![iu])|"
    + _INT
    + rb"|"
    + _UINT
    + rb"|"
    + _STRING
    + rb"|"
    + _BOOL
    + rb")"
)
_LINE = (
    rb"[ \t]*+"
    + _MEAS
    + rb"(?:,"
    + _KEY
    + rb"="
    + _KEY
    + rb")*+"
    + rb" ++"
    + _KEY
    + rb"="
    + _VALUE
    + rb"(?:,"
    + _KEY
    + rb"="
    + _VALUE
    + rb")*+"
    + rb"(?: ++-?(?:[0-9]{1,18}+|[1-8][0-9]{18})(?![0-9]))? *+\r?"
)
_BLANK = rb"[ \t]*+(?:#[^\n]*+)?\r?"
_BODY_RE = re.compile(
    rb"(?:(?:" + _LINE + rb"|" + _BLANK + rb")\n)*+(?:" + _LINE + rb"|" + _BLANK + rb")"
)
_BLANK_LINE_RE = re.compile(rb"^" + _BLANK + rb"$", re.MULTILINE)
# Anything that might be a reserved tag name sends the body to the exact parser.
# Backslashes may hide inside a name (v\\m_account_id unescapes to vm_account_id).
_RESERVED_HINT_RE = re.compile(
    rb"[, ]\\?(?:"
    + rb"|".join(
        rb"\\?".join(re.escape(bytes([c])) for c in name.encode())
        for name in (*sorted(RESERVED_NAMES), RESERVED_PREFIX)
    )
    + rb")"
)
# Substrings without which the hint cannot match (plain `in` is memchr-fast).
_RESERVED_NEEDLES = (b"\\", RESERVED_PREFIX.encode(), *(n.encode() for n in RESERVED_NAMES))
# Without these a body has no blank or comment line, except maybe an empty last one.
_BLANK_NEEDLES = (b"#", b"\n\n", b"\n ", b"\n\t", b"\n\r")
_BLANK_STARTS = (b"", b" ", b"\t", b"\r", b"\n")


def _may_name_reserved(body: bytes) -> bool:
    return any(n in body for n in _RESERVED_NEEDLES) and _RESERVED_HINT_RE.search(body) is not None


def _may_have_blank(body: bytes) -> bool:
    return body[:1] in _BLANK_STARTS or any(n in body for n in _BLANK_NEEDLES)


# A line over a series limit is longer than MAX_NAME_BYTES and has a run of more than
# MAX_NAME_BYTES bytes between two unescaped spaces or commas (a tag's key=value, a
# measurement, a field's key=value), or more than MAX_LABELS commas before its first space.
# Lines found so go through the exact parser; the check is conservative (escape pairs count
# as two ordinary bytes, whatever they unescape to).
_RUN_BYTES = series_limits.MAX_NAME_BYTES + 1
_ESCAPE_PAIR_RE = re.compile(rb"\\[^\n]")
_SEPARATORS = bytes.maketrans(b" ,", b"\n\n")


def _suspect_lines(body: bytes) -> list[int]:
    """Start offsets, in order, of the lines that might break a series limit."""
    flat = _ESCAPE_PAIR_RE.sub(b"__", body) if b"\\" in body else body
    starts: list[int] = []
    start = 0
    for raw in flat.split(b"\n"):
        if len(raw) >= _RUN_BYTES:
            line = raw.lstrip(b" \t")
            if (
                line.count(b",", 0, line.find(b" ")) > series_limits.MAX_LABELS
                or max(map(len, line.translate(_SEPARATORS).split(b"\n"))) >= _RUN_BYTES
            ):
                starts.append(start)
        start += len(raw) + 1
    return starts


def _check_suspects(body: bytes, bounds: TimeBounds | None) -> None:
    """Run the exact parser on the lines that might break a series limit; raise BadRequest
    naming the first that does."""
    for start in _suspect_lines(body):
        end = body.find(b"\n", start)
        raw = body[start : end if end >= 0 else len(body)]
        line = _strip(raw)
        if not line or line.startswith(b"#"):
            continue
        reason = line_error(line, bounds)
        if reason is not None:
            number = body.count(b"\n", 0, start) + 1
            raise BadRequest(f"line {number}: {reason} (in {_snippet(raw)})")


_ANY_FLOAT_RE = re.compile(rb"[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
_ANY_INT_RE = re.compile(rb"-?[0-9]+i")
_ANY_UINT_RE = re.compile(rb"[0-9]+u")
_UINT64_MAX = 2**64 - 1
_BOOLS = frozenset(
    (b"t", b"T", b"true", b"True", b"TRUE", b"f", b"F", b"false", b"False", b"FALSE")
)
# The timestamp of a valid line: the last space-separated token when it is all digits
# (a field set always contains '=', a string value ends with '"').
_TS_TAIL_RE = re.compile(rb" (-?[0-9]+) *\r?$", re.MULTILINE)
_TS_RE = re.compile(rb"-?[0-9]{1,19}")

_SNIPPET = 80
_RESERVED_WHY = (
    "vigil_workspace, vm_account_id, vm_project_id and names starting with __ are set by Vigil"
)
_INT64_MAX = 2**63 - 1


_PER_MS = {"ns": 1_000_000, "us": 1_000, "ms": 1}
_DAY_MS = 86_400_000
MAX_FUTURE_MS = 2 * _DAY_MS  # vigil-storage refuses points further ahead than this


@dataclass(frozen=True, slots=True)
class TimeBounds:
    """The timestamps storage will take, in the request's precision (inclusive)."""

    lo: int
    hi: int
    precision: str
    retention: str

    @classmethod
    def around(
        cls, now_ms: int, *, precision: str, retention_ms: int, retention: str
    ) -> TimeBounds:
        lo_ms = max(0, now_ms - retention_ms)
        hi_ms = now_ms + MAX_FUTURE_MS
        if precision == "s":
            return cls(-(-lo_ms // 1000), hi_ms // 1000, precision, retention)
        k = _PER_MS[precision]
        return cls(lo_ms * k, hi_ms * k, precision, retention)

    def why(self, ts: int, *, precision_hint: bool = True) -> str | None:
        """Why storage would refuse ``ts``, or None."""
        if self.lo <= ts <= self.hi:
            return None
        if ts < 0:
            return f"timestamp {ts} is before 1970"
        when = _iso(ts, self.precision)
        if ts > self.hi:
            hint = (
                f" (precision {self.precision!r}: is the precision parameter right?)"
                if precision_hint
                else ""
            )
            return f"timestamp {when} is more than 2 days in the future{hint}"
        return f"timestamp {when} is older than the retention period ({self.retention})"


def _iso(ts: int, precision: str) -> str:
    ms = ts * 1000 if precision == "s" else ts // _PER_MS[precision]
    try:
        return datetime.fromtimestamp(ms / 1000, tz=UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    except (OverflowError, OSError, ValueError):
        return str(ts)


def count_points(body: bytes, bounds: TimeBounds | None = None) -> int:
    """Validate a line-protocol body and return its number of points; with ``bounds``,
    timestamps outside them are refused too.

    Raises BadRequest naming the first bad line (1-based) and the reason.
    """
    if (
        _BODY_RE.fullmatch(body) is not None
        and not _may_name_reserved(body)
        and (bounds is None or _within(body, bounds))
    ):
        _check_suspects(body, bounds)
        segments = body.count(b"\n") + 1
        if not _may_have_blank(body):
            return segments - (1 if body.endswith(b"\n") else 0)
        return segments - len(_BLANK_LINE_RE.findall(body))
    return _count_points_slow(body, bounds)


def _within(body: bytes, bounds: TimeBounds) -> bool:
    stamps = _TS_TAIL_RE.findall(body)
    if not stamps:
        return True
    values = list(map(int, stamps))
    return bounds.lo <= min(values) and max(values) <= bounds.hi


def _count_points_slow(body: bytes, bounds: TimeBounds | None = None) -> int:
    points = 0
    for number, raw in enumerate(body.split(b"\n"), start=1):
        line = _strip(raw)
        if not line or line.startswith(b"#"):
            continue
        reason = line_error(line, bounds)
        if reason is not None:
            raise BadRequest(f"line {number}: {reason} (in {_snippet(raw)})")
        points += 1
    return points


def _strip(raw: bytes) -> bytes:
    """A line without its trailing CR, trailing spaces and leading whitespace."""
    if raw.endswith(b"\r"):
        raw = raw[:-1]
    return raw.rstrip(b" ").lstrip(b" \t")


def _snippet(raw: bytes) -> str:
    text = raw.decode("utf-8", errors="replace")
    return repr(text if len(text) <= _SNIPPET else text[:_SNIPPET] + "…")


def _split_unescaped(s: bytes, seps: bytes, start: int = 0) -> tuple[int, bytes | None]:
    """Index of the first unescaped byte of ``seps`` in ``s`` from ``start`` (quotes not
    considered), and which byte it was; ``len(s), None`` when none."""
    i, n = start, len(s)
    while i < n:
        c = s[i : i + 1]
        if c == b"\\":
            i += 2
            continue
        if c in seps and c != b"":
            return i, c
        i += 1
    return n, None


def _name(b: bytes) -> str:
    return b.decode("utf-8", errors="replace")


def _unescape(b: bytes) -> bytes:
    return re.sub(rb"\\(.)", rb"\1", b)


def line_error(line: bytes, bounds: TimeBounds | None = None) -> str | None:
    """The reason one (stripped, non-comment) line is invalid, or None when it is valid."""
    tags: list[tuple[bytes, bytes]] = []
    fields: list[tuple[bytes, bool]] = []
    return _syntax_error(line, bounds, tags, fields) or _limits_error(line, tags, fields)


def _storage_unescape(token: bytes, stops: bytes) -> bytes:
    """A name as vigil-storage reads it: a backslash escapes a following byte of ``stops`` or
    a backslash and is kept otherwise."""
    if b"\\" not in token:
        return token
    return _STORAGE_ESCAPES[stops].sub(rb"\1", token)


_STORAGE_ESCAPES = {
    stops: re.compile(rb"\\([" + re.escape(stops) + rb"\\])") for stops in (b", ", b"=, ")
}


def _limits_error(
    line: bytes, tags: list[tuple[bytes, bytes]], fields: list[tuple[bytes, bool]]
) -> str | None:
    """Why storage would refuse a syntactically valid line for a series limit, or None."""
    why = series_limits.too_many("tags", len(tags))
    if why is not None:
        return why
    for key, value in tags:
        name = _storage_unescape(key, b"=, ")
        why = series_limits.name_too_long("tag", name) or series_limits.value_too_long(
            f"value of tag {series_limits.quote_head(name)}", _storage_unescape(value, b"=, ")
        )
        if why is not None:
            return why
    # Each numeric field is a series named <measurement>:<field>; a field named twice keeps
    # its last value, and string fields make no series.
    numeric: dict[bytes, None] = {}
    for key, is_numeric in fields:
        name = _storage_unescape(key, b"=, ")
        numeric.pop(name, None)
        if is_numeric:
            numeric[name] = None
    if not numeric:
        return None
    i, _ = _split_unescaped(line, b", ")
    measurement = _storage_unescape(line[:i], b", ")
    for name in numeric:
        series = measurement + b":" + name
        if len(series) > series_limits.MAX_VALUE_BYTES:
            return series_limits.value_too_long(
                f"series name {series_limits.quote_head(series)} (measurement:field)", series
            )
    return None


def _syntax_error(
    line: bytes,
    bounds: TimeBounds | None,
    tags: list[tuple[bytes, bytes]],
    fields: list[tuple[bytes, bool]],
) -> str | None:
    """Why a line does not parse or names a reserved tag or field, or None; collects its tags and
    fields (key, numeric) on the way."""
    n = len(line)
    # Measurement: up to the first unescaped comma or whitespace.
    i, sep = _split_unescaped(line, b", ")
    measurement = line[:i]
    if not measurement:
        return "missing measurement name"
    if measurement.endswith(b"\\") and not measurement.endswith(b"\\\\"):
        return "measurement ends with a lone backslash"
    if sep is None:
        return "missing fields: expected a space then field=value after the measurement"
    # Tags.
    while sep == b",":
        j, sep = _split_unescaped(line, b", =", i + 1)
        key = line[i + 1 : j]
        if sep != b"=":
            return f"tag {_name(key)!r} has no '=value'" if key else "empty tag key"
        if not key:
            return "empty tag key"
        k, sep = _split_unescaped(line, b", =", j + 1)
        value = line[j + 1 : k]
        if sep == b"=":
            return f"tag {_name(key)!r} value has an unescaped '='"
        if not value:
            return f"tag {_name(key)!r} has an empty value"
        if is_reserved(_unescape(key).decode("utf-8", errors="replace")):
            return f"tag {_name(key)!r} is reserved ({_RESERVED_WHY})"
        tags.append((key, value))
        i = k
    # Whitespace between sections.
    while i < n and line[i : i + 1] == b" ":
        i += 1
    if i >= n:
        return "missing fields: expected field=value after the tags"
    # Fields.
    while True:
        j, sep = _split_unescaped(line, b", =", i)
        key = line[i:j]
        if sep != b"=":
            return f"field {_name(key)!r} has no '=value'" if key else "empty field key"
        if not key:
            return "empty field key"
        if is_reserved(_unescape(key).decode("utf-8", errors="replace")):
            return f"field {_name(key)!r} is reserved ({_RESERVED_WHY})"
        i = j + 1
        if line[i : i + 1] == b'"':
            k = i + 1
            while k < n:
                c = line[k : k + 1]
                if c == b"\\":
                    k += 2
                    continue
                if c == b'"':
                    break
                k += 1
            if k >= n:
                return f"field {_name(key)!r} has an unterminated string value"
            k += 1
            if k < n and line[k : k + 1] not in (b",", b" "):
                after = _name(line[k : k + 1])
                return f"field {_name(key)!r}: unexpected {after!r} after the string value"
            sep = line[k : k + 1] if k < n else None
            fields.append((key, False))
        else:
            k, sep = _split_unescaped(line, b", ", i)
            value = line[i:k]
            if not value:
                return f"field {_name(key)!r} has an empty value"
            reason = _value_error(value)
            if reason is not None:
                return f"field {_name(key)!r}: {reason}"
            fields.append((key, True))
        i = k + 1
        if sep != b",":
            break
    if sep is None:
        return None
    # Timestamp.
    while i < n and line[i : i + 1] == b" ":
        i += 1
    rest = line[i:]
    if not rest:
        return None
    if b" " in rest:
        return f"unexpected text after the timestamp: {_name(rest)!r}"
    if _TS_RE.fullmatch(rest) is None:
        return f"invalid timestamp {_name(rest)!r}: want an integer in the request's precision"
    ts = int(rest)
    if not -_INT64_MAX - 1 <= ts <= _INT64_MAX:
        return f"timestamp {_name(rest)} is out of the int64 range"
    return bounds.why(ts) if bounds is not None else None


def _value_error(value: bytes) -> str | None:
    if value in _BOOLS:
        return None
    if _ANY_FLOAT_RE.fullmatch(value):
        if math.isinf(float(value)):
            return f"number {_name(value)} is out of the float64 range"
        return None
    if _ANY_INT_RE.fullmatch(value):
        if not -_INT64_MAX - 1 <= int(value[:-1]) <= _INT64_MAX:
            return f"integer {_name(value)} is out of the int64 range"
        return None
    if _ANY_UINT_RE.fullmatch(value):
        if int(value[:-1]) > _UINT64_MAX:
            return f"unsigned integer {_name(value)} is out of the uint64 range"
        return None
    if value.endswith(b"i") and _ANY_FLOAT_RE.fullmatch(value[:-1]):
        return f"invalid integer {_name(value)!r} (integers end in i and have no decimal point)"
    if value.endswith(b"u"):
        return f"invalid unsigned integer {_name(value)!r}"
    return (
        f"invalid value {_name(value)!r}: want a number, an integer like 1i, "
        'a boolean, or a "quoted string"'
    )
