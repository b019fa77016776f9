"""Dashboards shipped with every new workspace."""

from __future__ import annotations

from app.schemas.dashboard import DashboardCreate

HOST_OVERVIEW_TITLE = "Host overview"


def _panel(
    panel_id: str,
    title: str,
    queries: list[str],
    *,
    x: int,
    y: int,
    w: int = 12,
    h: int = 8,
    type: str = "timeseries",
    unit: str = "none",
    **extra: object,
) -> dict[str, object]:
    return {
        "id": panel_id,
        "type": type,
        "title": title,
        "grid": {"x": x, "y": y, "w": w, "h": h},
        "queries": [{"ref_id": chr(ord("A") + i), "query": q} for i, q in enumerate(queries)],
        "unit": unit,
        **extra,
    }


def host_overview() -> DashboardCreate:
    """Host metrics as vigil-agent writes them (Telegraf's cpu/mem/disk/diskio/net/system names)."""
    host = "{host = '$host'}"
    # Time expressions keep only the interval (and rollup): the UI sends the dashboard's time
    # range as time_range, and max_point so that long ranges widen the interval.
    gauge = "[::30s]"
    rate = "[::1m:rate]"  # per-second rate of a counter, per timeline, in 1-minute buckets
    panels = [
        _panel(
            "uptime",
            "Uptime",
            [f"M::system:(last(uptime)) {host} BY host"],
            x=0,
            y=0,
            w=6,
            h=4,
            type="stat",
            unit="s",
            sparkline=False,
        ),
        _panel(
            "load1",
            "Load (1m)",
            [f"M::system:(last(load1)) {host} BY host"],
            x=6,
            y=0,
            w=6,
            h=4,
            type="stat",
            unit="short",
            decimals=2,
            sparkline=False,
            thresholds=[{"value": 4, "color": "orange"}, {"value": 8, "color": "red"}],
            description="Processes running or waiting for a CPU, averaged over the last minute. "
            "Compare it with the number of cores: above it, work queues up.",
        ),
        _panel(
            "mem-used",
            "Memory used",
            [f"M::mem:(last(used_percent)) {host} BY host"],
            x=12,
            y=0,
            w=6,
            h=4,
            type="stat",
            unit="percent",
            decimals=1,
            sparkline=False,
            thresholds=[{"value": 80, "color": "orange"}, {"value": 95, "color": "red"}],
        ),
        _panel(
            "disk-used",
            "Disk used (max)",
            [f"M::disk:(max(used_percent)) {host} BY host"],
            x=18,
            y=0,
            w=6,
            h=4,
            type="stat",
            unit="percent",
            decimals=1,
            sparkline=False,
            thresholds=[{"value": 80, "color": "orange"}, {"value": 90, "color": "red"}],
        ),
        _panel(
            "cpu",
            "CPU usage",
            [
                f"M::cpu:(avg(usage_user) AS user, avg(usage_system) AS system, "
                f"avg(usage_iowait) AS iowait) {{host = '$host', cpu = 'cpu-total'}} {gauge} "
                "BY host",
            ],
            x=0,
            y=4,
            type="area",
            unit="percent",
            stack=True,
            description="Share of all cores' time spent in programs (user), in the kernel "
            "(system) and waiting for disk or network I/O (iowait), stacked.",
            legend={"show": True, "position": "bottom", "values": ["last", "max"]},
        ),
        _panel(
            "load",
            "Load average",
            [
                f"M::system:(avg(load1) AS load1, avg(load5) AS load5, avg(load15) AS load15) "
                f"{host} {gauge} BY host",
            ],
            x=12,
            y=4,
            unit="short",
        ),
        _panel(
            "mem",
            "Memory",
            [
                f"M::mem:(avg(used) AS used, avg(available) AS available) {host} {gauge} BY host",
            ],
            x=0,
            y=12,
            unit="bytes",
            description="Used: memory programs hold. Available: what new programs can get "
            "without swapping, page cache included.",
            legend={"show": True, "position": "bottom", "values": ["last"]},
        ),
        _panel(
            "disk",
            "Disk used by mount",
            [
                f"M::disk:(last(used_percent)) {host} BY host, path",
            ],
            x=12,
            y=12,
            # one value per mount, fullest first: a ranked list, not bars at one instant
            type="toplist",
            unit="percent",
            limit=10,
            thresholds=[{"value": 80, "color": "orange"}, {"value": 90, "color": "red"}],
        ),
        _panel(
            "diskio",
            "Disk I/O",
            [
                f"M::diskio:(sum(read_bytes) AS read, sum(write_bytes) AS write) {host} {rate} "
                "BY host",
            ],
            x=0,
            y=20,
            unit="bytes/s",
            description="Bytes read from and written to all disks, per second.",
        ),
        _panel(
            "net",
            "Network",
            [
                f"M::net:(sum(bytes_recv) AS received, sum(bytes_sent) AS sent) {host} {rate} "
                "BY host",
            ],
            x=12,
            y=20,
            unit="bytes/s",
            description="Bytes received and sent on all network interfaces, per second.",
        ),
        _panel(
            "top-cpu",
            "Busiest hosts (CPU user %)",
            [
                "M::cpu:(avg(usage_user)) {cpu = 'cpu-total'} BY host",
            ],
            x=0,
            y=28,
            w=24,
            h=8,
            type="toplist",
            unit="percent",
            limit=10,
            description="Every host of the workspace, whatever the Host variable says: the "
            "ten with the highest average CPU user time over the time range.",
        ),
    ]
    return DashboardCreate.model_validate(
        {
            "title": HOST_OVERVIEW_TITLE,
            "description": "CPU, memory, disk, disk I/O, network and load of the hosts "
            "running vigil-agent. Pick a host with the $host variable.",
            "tags": ["hosts", "vigil-agent"],
            "spec": {
                "schema_version": 1,
                "time": {"from": "now-1h", "to": "now"},
                "refresh": "30s",
                "variables": [
                    {
                        "name": "host",
                        "label": "Host",
                        "type": "query",
                        "query": "show_tag_value(from=['cpu'], keyin=['host'])",
                        "multi": False,
                        "include_all": False,
                    }
                ],
                "panels": panels,
            },
        }
    )
