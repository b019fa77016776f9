from __future__ import annotations

from vigil_bench.datagen import Dataset, HostShape, series_copy_rows, unaligned_start


def _ds(**kw: int) -> Dataset:
    args = dict(hosts=2, ticks=3, start_ms=unaligned_start(1_700_000_000_000), interval_ms=10_000)
    args.update(kw)
    return Dataset(HostShape.named("node"), **args)


def test_node_shape_is_a_node_exporter_target() -> None:
    shape = HostShape.named("node")
    assert shape.series_per_host == 1383
    assert HostShape.named("cpu").series_per_host == 170


def test_start_is_off_every_bucket_boundary() -> None:
    s = unaligned_start(1_700_000_123_456)
    assert s % 1000 == 234 and s <= 1_700_000_123_456 + 1234


def test_chunks_cover_every_line_once_and_formats_agree() -> None:
    ds = _ds()
    chunks = list(ds.chunks(50))
    assert sum(c.lines for c in chunks) == ds.lines_total
    assert sum(c.points for c in chunks) == ds.points_total == 2 * 3 * 1383
    lp = b"".join(c.line_protocol() for c in chunks).decode().splitlines()
    rows = b"".join(c.copy_rows() for c in chunks).decode().splitlines()
    assert len(lp) == ds.lines_total and len(rows) == ds.points_total
    # the first line's first field and the first COPY row carry the same text
    first_value = lp[0].split(" ")[1].split(",")[0].split("=")[1]
    assert rows[0].split("\t")[2] == first_value
    assert lp[0].startswith("cpu,cpu=cpu0,host=host-00000 usage_user=")
    assert lp[0].endswith(f" {ds.start_ms}")


def test_rendering_is_deterministic_and_chunk_independent() -> None:
    ds = _ds()
    whole = next(ds.chunks(10**9)).line_protocol()
    parts = b"".join(c.line_protocol() for c in ds.chunks(7))
    assert whole == parts


def test_series_rows_match_copy_ids() -> None:
    ds = _ds(hosts=1, ticks=1)
    ids = {int(r.split("\t")[0]) for r in series_copy_rows(ds).decode().splitlines()}
    used = {int(r.split("\t")[0]) for r in next(ds.chunks(10**6)).copy_rows().decode().splitlines()}
    assert ids == used and len(ids) == 1383
