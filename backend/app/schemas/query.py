"""DQL ``/v1/query/raw`` request and response (DQL.md §2), published for the typed client.

The backend forwards the request to vigil-storage and returns storage's answer unchanged;
these models document the shape, they do not reshape it.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class DqlQuery(BaseModel):
    model_config = ConfigDict(extra="allow")

    query: str = Field(examples=["M::cpu:(avg(usage_idle)) [1h] BY host"])
    qtype: str | None = Field(
        default=None,
        examples=["promql"],
        description="the query's language: dql (default) or promql (MetricsQL), DQL.md §16",
    )
    time_range: list[int] | None = Field(
        default=None,
        min_length=1,
        max_length=2,
        description="[start_ms, end_ms]; one element = start",
    )
    conditions: str | None = None
    limit: int | None = None
    offset: int | None = None
    slimit: int | None = None
    soffset: int | None = None
    disable_slimit: bool | None = None
    max_point: int | None = None
    max_duration: str | None = None
    timeout: str | None = None
    step: str | None = Field(
        default=None, examples=["1m"], description="PromQL only: the resolution"
    )


class DqlRequest(BaseModel):
    model_config = ConfigDict(
        extra="allow",
        json_schema_extra={
            "examples": [
                {
                    "queries": [
                        {
                            "query": "M::cpu:(avg(usage_idle)) [1h:5m] BY host",
                            "time_range": [1699999200000, 1700002800000],
                            "conditions": "region = 'east'",
                            "slimit": 20,
                            "max_point": 720,
                        }
                    ],
                    "echo_explain": False,
                }
            ]
        },
    )

    queries: list[DqlQuery] = Field(min_length=1)
    echo_explain: bool | None = None


class DqlSeries(BaseModel):
    name: str
    tags: dict[str, str] | None = None
    columns: list[str]
    values: list[list[Any]]


class DqlResult(BaseModel):
    series: list[DqlSeries]
    cost: str | None = None
    raw_query: str | None = None
    query_type: str | None = None


class DqlResponse(BaseModel):
    content: list[DqlResult]


class DqlError(BaseModel):
    error_code: str = Field(examples=["dql.parse_error"])
    message: str


class PrometheusError(BaseModel):
    """Every error under the Prometheus-compatible prefixes (Prometheus' own envelope)."""

    status: str = Field(examples=["error"])
    errorType: str = Field(examples=["bad_data"])  # noqa: N815 - Prometheus' field name
    error: str = Field(examples=['invalid parameter "type": not supported value "x"'])
