"""Monitors and alerting: evaluation, state, notification.

The pure rules live here and are shared by the API (previews, muted flags) and the evaluator
service (``python -m app.alerting`` / ``vigil-alerting``):

- ``conditions``  severities, thresholds, reducers and change detection
- ``results``     a query's answer as one value per group
- ``state``       the per-group state machine (ok → pending → firing → resolved, no data)
- ``silencing``   which silence mutes a group now
- ``templates``   ``{{host}}``-style message templates

The service itself: ``evaluate`` (running a monitor's query through the workspace-scoped query
path), ``scheduler`` (claiming due monitors with row locks, so two evaluators never evaluate
one monitor at once), ``notify`` (turning transitions into notifications), ``dispatch`` (the
outbox sender), ``webhook`` and ``email`` (the channels), ``recording`` (recording rules),
``main`` (the process).
"""
