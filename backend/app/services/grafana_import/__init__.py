"""Grafana dashboards into Vigil dashboards: everything that maps, and a list of what does not.

``convert(document)`` reads the JSON that Grafana 9–11 exports (the dashboard itself, with or
without the ``__inputs`` / ``__requires`` / ``__elements`` wrapper of *Export for sharing
externally*, or the ``{"dashboard": …}`` envelope of Grafana's HTTP API) and returns a
``DashboardCreate`` plus the list of what could not be carried over, each with the Grafana
panel's (or variable's) title and the reason. Nothing is dropped without an entry in that
list, except display details Vigil has no counterpart for (colour modes, text sizes, tooltip
modes, axis placement).

What maps:

- panels ``timeseries``, ``graph`` (old), ``stat``, ``singlestat`` (old), ``gauge``,
  ``bargauge`` (a top list), ``table``, ``text``, ``heatmap``; rows, collapsed ones with
  their panels; library panels whose model the export carries; ``repeat`` of panels and rows;
- Prometheus targets: ``expr`` (``[[var]]`` and ``${var:regex}`` rewritten to ``${var}``),
  ``legendFormat``, ``interval`` (the query's minimum step), ``hide``;
- units (``UNITS``), decimals, thresholds (Grafana's palette names and ``rgba()`` to hex),
  min/max of gauges, legends, stacking, fill, line width, reducers, ``gridPos``;
- variables ``query`` (``label_values()``, ``label_names()``, ``metrics()``,
  ``query_result()``, with ``regex``), ``custom``, ``constant``, ``interval`` (a custom
  list), ``textbox`` (a constant); the time range, auto refresh, time zone, tags.

The converter is pure: it reads the document and never the database, so it is tested with
plain dictionaries (``tests/services/test_grafana_import.py``) and the fixtures of
``tests/fixtures/grafana/``.

Modules, each importing only the ones listed before it:

- ``values``: coercion of the document's untyped JSON (``_str``, ``_int``, ``_dict`` …);
- ``context``: ``_Context``, what one conversion has seen so far and what it left out;
- ``fieldconfig``: units, colours, thresholds, reducers, legends;
- ``targets``: data source references, query targets, ``rewrite_variables``;
- ``variables``: the dashboard's template variables;
- ``visualizations``: what each Grafana panel type becomes;
- ``panels``: panels, rows, library panels, ``gridPos`` and ``repeat``;
- ``dashboard``: ``unwrap``, ``convert``, the time range, refresh and time zone.
"""

from app.services.grafana_import.dashboard import GrafanaConversion, convert, unwrap
from app.services.grafana_import.fieldconfig import COLORS, UNITS, color
from app.services.grafana_import.targets import MAX_QUERIES, rewrite_variables
from app.services.grafana_import.variables import MAX_VARIABLES

__all__ = [
    "COLORS",
    "MAX_QUERIES",
    "MAX_VARIABLES",
    "UNITS",
    "GrafanaConversion",
    "color",
    "convert",
    "rewrite_variables",
    "unwrap",
]
