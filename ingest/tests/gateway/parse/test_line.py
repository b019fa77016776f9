"""Line protocol validation: valid forms with their point counts, each invalid form with its
message, and a fuzz run that the fast and exact paths agree."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vigil_ingest.common.errors import BadRequest
from vigil_ingest.gateway.parse.line import (
    _BODY_RE,
    TimeBounds,
    _count_points_slow,
    _strip,
    count_points,
    line_error,
)


@pytest.mark.parametrize(
    ("body", "points"),
    [
        (b"", 0),
        (b"\n\n", 0),
        (b"# only a comment\n", 0),
        (b"cpu value=1", 1),
        (b"cpu value=1\n", 1),
        (b"cpu,host=a,region=eu usage_user=1.5,usage_idle=98 1700000000000000000\n", 1),
        (b'cpu v=1i,w=2u,x=-3i,y=true,z=F,s="a b, c=d" 1\n', 1),
        (b"cpu v=1.5e-3,w=-.5,x=+2,y=1E6 -1\n", 1),
        (b"cpu\\ load,host\\=x=a\\ b v=1\n", 1),  # escaped space in measurement, = in tag key
        (b"m,t=1 f=1\r\nm,t=2 f=2\r\n", 2),  # Windows line endings
        (b"  cpu v=1  \n\tcpu v=2\n", 2),  # leading whitespace, trailing spaces
        (b"cpu\tload,host=a\tb v=1\n", 1),  # a tab is an ordinary character
        (b"cpu v=1,v=2\n", 1),  # InfluxDB keeps the last value
        (b"cpu v=-9223372036854775808i,w=18446744073709551615u 9223372036854775807\n", 1),
        (b"cpu v=1e308,w=" + b"9" * 300 + b"\n", 1),
        (b"# comment\ncpu v=1\n\n# another\ncpu v=2\n", 2),
        (b'cpu msg="has \\"quotes\\" and \\\\ backslash"\n', 1),
        (b"cpu v=1 1700000000\ncpu v=2 1700000001\ncpu v=3 1700000002", 3),
        (b"cpu,_name=x v=1\n", 1),  # one underscore is fine
        (b"cpu field__=1,_x=2\n", 1),  # reserved are only names starting with __
    ],
)
def test_valid(body: bytes, points: int) -> None:
    assert count_points(body) == points
    assert _count_points_slow(body) == points


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b"cpu", "line 1: missing fields: expected a space then field=value after the measurement"),
        (b"cpu,host=a", "line 1: missing fields: expected field=value after the tags"),
        (
            b"cpu ",
            "line 1: missing fields: expected a space then field=value after the measurement",
        ),
        (b",host=a v=1", "line 1: missing measurement name"),
        (b"cpu,host v=1", "line 1: tag 'host' has no '=value'"),
        (b"cpu,=a v=1", "line 1: empty tag key"),
        (b"cpu,host= v=1", "line 1: tag 'host' has an empty value"),
        (b"cpu,host=a=b v=1", "line 1: tag 'host' value has an unescaped '='"),
        (b"cpu v", "line 1: field 'v' has no '=value'"),
        (b"cpu =1", "line 1: empty field key"),
        (b"cpu v=", "line 1: field 'v' has an empty value"),
        (
            b"cpu v=abc",
            "line 1: field 'v': invalid value 'abc': want a number, an integer like 1i, a boolean, or a \"quoted string\"",
        ),
        (
            b"cpu v=1.5i",
            "line 1: field 'v': invalid integer '1.5i' (integers end in i and have no decimal point)",
        ),
        (b"cpu v=-1u", "line 1: field 'v': invalid unsigned integer '-1u'"),
        (b"cpu v=1,", "line 1: empty field key"),
        (b'cpu s="open', "line 1: field 's' has an unterminated string value"),
        (b'cpu s="a"x', "line 1: field 's': unexpected 'x' after the string value"),
        (
            b"cpu v=1 abc",
            "line 1: invalid timestamp 'abc': want an integer in the request's precision",
        ),
        (
            b"cpu v=1 1.5",
            "line 1: invalid timestamp '1.5': want an integer in the request's precision",
        ),
        (b"cpu v=1 1 2", "line 1: unexpected text after the timestamp: '1 2'"),
        (
            b"cpu v=1 99999999999999999999",
            "line 1: invalid timestamp '99999999999999999999': want an integer in the request's precision",
        ),
        (
            b"cpu v=1 9999999999999999999",
            "line 1: timestamp 9999999999999999999 is out of the int64 range",
        ),
        (b"cpu v=1\t", "line 1: field 'v': invalid value '1\\t'"),
        (b"cpu v=1\t1", "line 1: field 'v': invalid value '1\\t1'"),
        (b'cpu s="x"\t', "line 1: field 's': unexpected '\\t' after the string value"),
        (b"cpu v=1e400", "line 1: field 'v': number 1e400 is out of the float64 range"),
        (
            b"cpu v=9223372036854775808i",
            "line 1: field 'v': integer 9223372036854775808i is out of the int64 range",
        ),
        (
            b"cpu v=-9223372036854775809i",
            "line 1: field 'v': integer -9223372036854775809i is out of the int64 range",
        ),
        (
            b"cpu v=18446744073709551616u",
            "line 1: field 'v': unsigned integer 18446744073709551616u is out of the uint64 range",
        ),
        (
            b"cpu v=1 -9223372036854775809",
            "line 1: timestamp -9223372036854775809 is out of the int64 range",
        ),
        (b"cpu,vigil_workspace=x v=1", "line 1: tag 'vigil_workspace' is reserved"),
        (b"cpu,vm_account_id=1 v=1", "line 1: tag 'vm_account_id' is reserved"),
        (b"cpu,vm_project_id=1 v=1", "line 1: tag 'vm_project_id' is reserved"),
        (b"cpu,__name__=x v=1", "line 1: tag '__name__' is reserved"),
        (rb"cpu,\vigil_workspace=x v=1", "line 1: tag '\\\\vigil_workspace' is reserved"),
        (b"cpu,vigil\\_workspace=x v=1", "line 1: tag 'vigil\\\\_workspace' is reserved"),
        # a field named so could be written but never asked for: refused alike
        (b"rt vigil_workspace=1", "line 1: field 'vigil_workspace' is reserved"),
        (b"rt a=1,__field__=1", "line 1: field '__field__' is reserved"),
        (b"cpu __field=1", "line 1: field '__field' is reserved"),
        (b"rt,host=a v=1,vm_account_id=2i", "line 1: field 'vm_account_id' is reserved"),
        (b"cpu v=1\ncpu v=2\nmem free=oops\n", "line 3: field 'free': invalid value 'oops'"),
        (b"cpu v=1\n\n# c\nbroken\n", "line 4: missing fields"),
    ],
)
def test_invalid(body: bytes, message: str) -> None:
    with pytest.raises(BadRequest) as e:
        count_points(body)
    assert e.value.message.startswith(message), e.value.message
    assert e.value.status == 400


def test_message_quotes_the_line_and_truncates_long_ones() -> None:
    with pytest.raises(BadRequest) as e:
        count_points(b"cpu,host=" + b"x" * 200 + b" v=bad")
    assert e.value.message.endswith("…')")
    assert len(e.value.message) < 300


def test_fast_path_handles_large_batches() -> None:
    body = b"".join(
        b"cpu,host=h%d,dc=a usage=%d.5,n=3i %d\n" % (i, i, 1_700_000_000 + i) for i in range(5000)
    )
    assert _BODY_RE.fullmatch(body) is not None
    assert count_points(body) == 5000


_chars = st.sampled_from(list(b'abc xyz=,"\\\t\n#-+.019eEiuTtFf_') + [0xC3, 0xA9, 0x0D])
_lines = st.lists(
    st.one_of(
        st.binary(max_size=40),
        st.builds(bytes, st.lists(_chars, max_size=40)),
        st.sampled_from([b"cpu v=1", b"cpu,host=a v=1i 1", b'm s="x"', b"m,t=1 a=1,b=2 3"]),
    ),
    max_size=6,
)


@settings(
    max_examples=1500, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(_lines)
def test_fuzz_only_clean_rejections(lines: list[bytes]) -> None:
    """Any input yields a count or a BadRequest naming a line; the fast path never accepts
    what the exact parser refuses."""
    body = b"\n".join(lines)
    try:
        n = count_points(body)
    except BadRequest as e:
        assert e.message.startswith("line ")
        return
    assert 0 <= n <= len(lines)
    for raw in body.split(b"\n"):
        line = _strip(raw)
        if line and not line.startswith(b"#"):
            assert line_error(line) is None, raw
    assert _count_points_slow(body) == n


NOW_MS = 1_790_000_000_000
DAY_MS = 86_400_000


@pytest.mark.parametrize(
    ("precision", "ts", "message"),
    [
        ("ms", NOW_MS, None),
        ("ms", NOW_MS - 399 * DAY_MS, None),
        ("ms", NOW_MS + 2 * DAY_MS, None),
        ("ms", NOW_MS + 2 * DAY_MS + 1, "more than 2 days in the future (precision 'ms'"),
        ("ms", NOW_MS - 400 * DAY_MS - 1, "older than the retention period (400d)"),
        ("s", NOW_MS // 1000, None),
        ("s", NOW_MS * 1_000_000, "more than 2 days in the future (precision 's'"),
        ("us", NOW_MS * 1000, None),
        ("ns", NOW_MS * 1_000_000, None),
        ("ns", NOW_MS // 1000, "older than the retention period"),
        ("ns", -1, "timestamp -1 is before 1970"),
    ],
)
def test_time_bounds(precision: str, ts: int, message: str | None) -> None:
    bounds = TimeBounds.around(
        NOW_MS, precision=precision, retention_ms=400 * DAY_MS, retention="400d"
    )
    body = b"cpu v=1\ncpu v=2 %d\n" % ts
    if message is None:
        assert count_points(body, bounds) == 2
        return
    with pytest.raises(BadRequest) as e:
        count_points(body, bounds)
    assert e.value.message.startswith("line 2: timestamp ")
    assert message in e.value.message


def _tags(n: int) -> bytes:
    return b",".join(b"t%d=v" % i for i in range(n))


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (b"cpu," + b"k" * 256 + b"=v v=1", None),
        (b"cpu," + b"k" * 257 + b"=v v=1", "tag name 'kkkk"),
        (b"cpu," + b"k" * 257 + b"=v v=1", "' is 257 bytes long, over the limit of 256"),
        (b"cpu,k=" + b"v" * 4096 + b" v=1", None),
        (b"cpu,k=" + b"v" * 4097 + b" v=1", "value of tag 'k' is 4097 bytes long"),
        (b"cpu," + _tags(64) + b" v=1", None),
        (b"cpu," + _tags(65) + b" v=1", "65 tags on one series, over the limit of 64"),
        (b"cpu," + _tags(65) + b' s="x"', "65 tags on one series"),  # storage counts them all
        # <measurement>:<field> is the series' __name__, a label value.
        (b"m" * 2000 + b" " + b"f" * 2095 + b"=1", None),
        (b"m" * 2000 + b" " + b"f" * 2096 + b"=1", "(measurement:field) is 4097 bytes long"),
        (b"m" * 2000 + b" " + b"f" * 2096 + b'="x"', None),  # a string field is no series
        (b"m" * 2000 + b" " + b"f" * 2096 + b"=1," + b"f" * 2096 + b'="x"', None),  # last wins
        (b"m" * 2000 + b" " + b"f" * 2096 + b'="x",' + b"f" * 2096 + b"=1", "4097 bytes long"),
        (b"m" * 4100 + b' s="x"', None),
        # Lengths count as storage unescapes: \, and \\ are one byte, \a stays two.
        (b"cpu," + b"k\\," * 128 + b"=v v=1", None),
        (b"cpu," + b"k\\\\" * 129 + b"=v v=1", "tag name 'k\\\\k"),
        (b"cpu," + b"\\a" * 128 + b"k=v v=1", "is 257 bytes long"),
        (b"cpu,k=" + b"\\ " * 4096 + b" v=1", None),
        (b"cpu,k=" + b"\\ " * 4096 + b"x v=1", "value of tag 'k' is 4097 bytes long"),
        (b"\\ " * 2100 + b" f=1", None),  # an escaped space in a measurement is one byte
        (b"\\=" * 2100 + b" f=1", "(measurement:field) is 4202 bytes long"),  # \= is two
    ],
)
def test_series_limits(line: bytes, message: str | None) -> None:
    """Storage's limits (storage/app/ingest, -ingest.maxLabel*), exact at the boundary, on the
    fast path (a valid first line) and on the exact parser alike."""
    body = b"cpu v=1\n" + line + b"\n"
    if message is None:
        assert count_points(body) == 2
        assert _count_points_slow(body) == 2
        return
    for check in (count_points, _count_points_slow):
        with pytest.raises(BadRequest) as e:
            check(body)
        assert e.value.message.startswith("line 2: "), e.value.message
        assert message in e.value.message, e.value.message


# Pieces of a tag key or value with the length storage gives them once unescaped.
_ATOMS = [(b"a", 1), (b"Z", 1), (b"\\,", 1), (b"\\ ", 1), (b"\\=", 1), (b"\\\\", 1), (b"\\a", 2)]
_ATOMS += [("é".encode(), 2)]


@st.composite
def _name_of(draw: st.DrawFn, size: int) -> bytes:
    """A tag key or value that storage reads as exactly ``size`` bytes: plain bytes, then a
    drawn pattern of escapes and multi-byte characters repeated to the end."""
    pattern = draw(st.lists(st.sampled_from(_ATOMS), min_size=1, max_size=6))
    n = draw(st.integers(min_value=0, max_value=size - 1))
    out = [b"a" * n]
    i = 0
    while n < size:
        raw, k = pattern[i % len(pattern)]
        if n + k > size:
            raw, k = b"a", 1
        out.append(raw)
        n += k
        i += 1
    return b"".join(out)


@st.composite
def _near_limits(draw: st.DrawFn) -> tuple[bytes, bool]:
    """A valid line close to storage's series limits, and whether storage refuses it."""
    ntags = draw(st.sampled_from([0, 1, 63, 64, 65, 70]))
    key_len = draw(st.sampled_from([1, 255, 256, 257, 300]))
    value_len = draw(st.sampled_from([1, 4095, 4096, 4097]))
    meas_len = draw(st.sampled_from([3, 2000, 4000]))
    field_len = draw(st.sampled_from([1, 95, 96, 2095, 2096]))
    numeric = draw(st.booleans())
    tags = [(b"t%d" % i, b"v") for i in range(max(0, ntags - 1))]
    if ntags:
        tags.append((draw(_name_of(key_len)), draw(_name_of(value_len))))
    measurement = b"m" * meas_len
    field = b"f" * field_len + (b"=1.5" if numeric else b'="x"')
    line = measurement + b"".join(b"," + k + b"=" + v for k, v in tags) + b" " + field
    refused = (
        ntags > 64
        or (ntags > 0 and (key_len > 256 or value_len > 4096))
        or (numeric and meas_len + 1 + field_len > 4096)
    )
    return line, refused


@settings(max_examples=300, deadline=None, database=None)
@given(_near_limits(), st.integers(min_value=0, max_value=3))
def test_fuzz_series_limits_match_storage(case: tuple[bytes, bool], before: int) -> None:
    """Lines around storage's limits: refused exactly when storage would refuse them, with the
    line's number, by the fast path and the exact parser alike."""
    line, refused = case
    body = b"cpu v=1\n" * before + line + b"\ncpu v=2\n"
    if not refused:
        assert count_points(body) == before + 2
        assert _count_points_slow(body) == before + 2
        return
    for check in (count_points, _count_points_slow):
        with pytest.raises(BadRequest) as e:
            check(body)
        assert e.value.message.startswith(f"line {before + 1}: "), e.value.message
        assert "over the limit of" in e.value.message, e.value.message
