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


VIGIL_ITSELF_TITLE = "Vigil itself"


def vigil_itself() -> DashboardCreate:
    """Vigil's own services, from their Prometheus /metrics as the demo agent scrapes them.

    The agent splits a scraped name at its first ``_``: ``vigil_gateway_points_total`` is
    field ``gateway_points_total`` of measurement ``vigil``, VictoriaMetrics'
    ``vm_rows_merged_total`` field ``rows_merged_total`` of ``vm``.
    """
    rate = "[::1m:rate]"
    gauge = "[::30s]"

    def mean(measurement: str, histogram: str, tags: str = "") -> str:
        """Mean of a histogram over each minute: rate of its sum / rate of its count."""
        by = f" BY {tags}" if tags else ""
        return (
            f'eval(A/B, A="M::{measurement}:(sum({histogram}_sum)) {rate}{by}", '
            f'B="M::{measurement}:(sum({histogram}_count)) {rate}{by}")'
        )

    panels = [
        _panel(
            "ingest-rate",
            "Ingest rate",
            [
                f"M::vigil:(sum(gateway_points_total) AS accepted) {rate}",
                f"M::vigil:(sum(consumer_points_total) AS written) {rate}",
            ],
            x=0,
            y=0,
            unit="short",
            description="Points per second the gateway accepted (Kafka acknowledged them) and "
            "the consumer wrote to storage.",
        ),
        _panel(
            "kafka-lag",
            "Kafka lag",
            [f"M::vigil:(max(consumer_lag) AS lag) {gauge} BY topic"],
            x=12,
            y=0,
            unit="short",
            description="Records produced to Kafka that the consumer has not written to "
            "storage yet, per topic (its busiest partition).",
        ),
        _panel(
            "storage-rows",
            "Storage rows added",
            [f"M::vm:(sum(rows_added_to_storage_total) AS rows) {rate}"],
            x=0,
            y=8,
            unit="short",
            description="Rows (samples) vigil-storage added per second.",
        ),
        _panel(
            "storage-merges",
            "Storage merges",
            [f"M::vm:(sum(rows_merged_total)) {rate} BY type"],
            x=12,
            y=8,
            unit="short",
            description="Rows per second VictoriaMetrics merged into bigger parts, by part "
            "type: steady merging keeps queries fast.",
        ),
        _panel(
            "query-latency",
            "Query latency (mean)",
            [mean("vigil", "backend_storage_request_duration_seconds", "operation")],
            x=0,
            y=16,
            unit="s",
            description="Time vigil-storage took to answer the backend's DQL and PromQL "
            "queries, per minute, by storage endpoint.",
        ),
        _panel(
            "write-latency",
            "Write latency (mean)",
            [
                mean("vigil", "gateway_kafka_ack_seconds"),
                mean("vigil", "consumer_storage_write_seconds"),
            ],
            x=12,
            y=16,
            unit="s",
            description="A: gateway, produce to Kafka acknowledgement. B: consumer, one "
            "write to storage.",
        ),
        _panel(
            "api-requests",
            "API requests",
            [f"M::vigil:(sum(backend_http_requests_total)) {rate} BY status"],
            x=0,
            y=24,
            unit="short",
            description="Requests per second the backend answered, by status code.",
        ),
        _panel(
            "errors",
            "Errors by service",
            [
                f"M::vigil:(sum(backend_http_requests_total) AS backend) "
                f"{{status = re'5..'}} {rate}",
                f"M::vigil:(sum(gateway_requests_total) AS gateway) {{code = re'5..'}} {rate}",
                f"M::vigil:(sum(consumer_deadletters_total) AS consumer) {rate}",
                f"M::vigil:(sum(http_errors_total) AS storage) {rate}",
                f"M::vigil:(sum(alerting_loop_errors_total) AS alerting) {rate}",
            ],
            x=12,
            y=24,
            unit="short",
            description="Per second: the backend's and the gateway's 5xx answers, batches "
            "the consumer sent to the dead-letter topic, storage's failed requests and "
            "vigil-alerting's unexpected loop errors.",
        ),
    ]
    return DashboardCreate.model_validate(
        {
            "title": VIGIL_ITSELF_TITLE,
            "description": "Vigil's own services: ingest rate, Kafka lag, storage rows and "
            "merges, query and write latency, errors. Fed by the demo agent scraping each "
            "service's /metrics.",
            "tags": ["vigil", "self-monitoring"],
            "spec": {
                "schema_version": 1,
                "time": {"from": "now-1h", "to": "now"},
                "refresh": "30s",
                "variables": [],
                "panels": panels,
            },
        }
    )
