import { useMemo, type ReactElement } from "react";
import { EChart } from "@/components/charts/EChart";
import { EmptyState } from "@/components/ui/EmptyState";
import type { Limits, UsageHistory } from "../api";
import { toQueriesChartOption, toUsageChartOption } from "../usageChart";
import { StorageError } from "./StorageError";

/** The usage over time: ingest rate and active series with their limits dashed, queries per day. */
export function UsageCharts({
  history,
  limits,
  storageErrorShown,
  activeSeriesNow,
}: {
  history: UsageHistory;
  limits: Limits | undefined;
  /** The figures above already say storage is down: say it once. */
  storageErrorShown: boolean;
  /** The figure above: series are active now even before their count's first record. */
  activeSeriesNow: number | null;
}): ReactElement {
  const range: [number, number] = [history.start, history.end];
  const rate = useMemo(
    () =>
      toUsageChartOption(history.ingest_rate, {
        name: "Ingest rate",
        unit: "points/s",
        range,
        limit: limits?.ingest_points_per_second,
      }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `range` is derived from `history`
    [history, limits?.ingest_points_per_second],
  );
  const series = useMemo(
    () =>
      toUsageChartOption(history.active_series, {
        name: "Active series",
        unit: "series",
        range,
        limit: limits?.active_series,
      }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `range` is derived from `history`
    [history, limits?.active_series],
  );
  const queries = useMemo(() => toQueriesChartOption(history.queries_per_day), [history]);
  const step = history.step_seconds >= 3600 ? `${history.step_seconds / 3600} h` : `${history.step_seconds / 60} min`;
  return (
    <>
      {history.storage_error && !storageErrorShown ? (
        <StorageError detail={history.storage_error} testId="usage-history-storage-error">
          Storage could not be reached; the ingest rate and active series history are unavailable.
        </StorageError>
      ) : null}
      <p className="muted small">
        The dashed line is the workspace&apos;s limit; click it in a legend to fit that chart to the usage alone.
      </p>
      <div className="usage-charts">
        <div>
          <h3>Ingest rate (average per {step})</h3>
          {history.ingest_rate.length === 0 ? (
            <EmptyState title="No points received in this period">
              Create an ingest key and point an agent at the gateway; its points show up here.
            </EmptyState>
          ) : (
            <EChart option={rate} label="Ingest rate over time, with the ingest rate limit" testId="usage-ingest-chart" style={{ height: 260 }} />
          )}
        </div>
        <div>
          <h3>Active series</h3>
          {history.active_series.length === 0 && !history.storage_error ? (
            activeSeriesNow ? (
              <EmptyState title="No record of active series yet" testId="usage-series-pending">
                Storage records each workspace&apos;s count of active series at an interval (once a minute by default);
                the chart starts with the first record.
              </EmptyState>
            ) : (
              <EmptyState title="No active series in this period" />
            )
          ) : (
            <EChart option={series} label="Active series over time, with the active series limit" testId="usage-series-chart" style={{ height: 260 }} />
          )}
        </div>
        <div>
          <h3>Queries per day (UTC)</h3>
          <EChart option={queries} label="Queries per day" testId="usage-queries-chart" style={{ height: 220 }} />
        </div>
      </div>
    </>
  );
}
