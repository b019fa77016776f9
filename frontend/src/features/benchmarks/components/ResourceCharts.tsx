import { useMemo, useState, type ReactElement } from "react";
import type { BenchmarkScenarioResult } from "../api";
import { resourceChart, resourceGroups } from "../charts";
import { subjectsOf } from "../report";
import { formatBytes } from "../units";
import { ChartGrid } from "./ChartGrid";

/** CPU % and RSS over time for each system under the same conditions (one phase at a time). */
export function ResourceCharts({ scenario, cpuCount }: { scenario: BenchmarkScenarioResult; cpuCount: number }): ReactElement | null {
  const groups = useMemo(() => resourceGroups(scenario), [scenario]);
  const subjects = useMemo(() => subjectsOf(scenario), [scenario]);
  const [phase, setPhase] = useState<string>();
  const [generators, setGenerators] = useState(false);
  const group = groups.find((g) => g.phase === phase) ?? groups[0];
  const charts = useMemo(
    () => (group ? [resourceChart(group, "cpu_percent", subjects, generators), resourceChart(group, "rss_bytes", subjects, generators)] : []),
    [group, subjects, generators],
  );
  if (!group) return null;
  const resources = scenario.resources ?? [];
  return (
    <section className="card stack" aria-labelledby="resources-heading">
      <div className="section-header">
        <h3 id="resources-heading">CPU and memory over time</h3>
        <div className="toolbar">
          {groups.length > 1 ? (
            <label className="inline-field">
              Phase
              <select value={group.phase} onChange={(e) => setPhase(e.target.value)}>
                {groups.map((g) => (
                  <option key={g.phase} value={g.phase}>
                    {g.phase}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
          <label className="inline-field">
            <input type="checkbox" checked={generators} onChange={(e) => setGenerators(e.target.checked)} />
            Show load generators
          </label>
        </div>
      </div>
      <p className="muted small">
        Each system&apos;s process tree sampled once a second; a system of several processes is their sum. CPU is percent of
        one core: {cpuCount * 100} % is all {cpuCount} CPUs of the machine, which the load generator shares.
      </p>
      <ChartGrid charts={charts} height={280} />
      <details>
        <summary>Per-process summary ({resources.length} process trees)</summary>
        <div className="table-scroll">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">Process</th>
                <th scope="col">Phase</th>
                <th scope="col" className="num">CPU % mean</th>
                <th scope="col" className="num">CPU % max</th>
                <th scope="col" className="num">RSS max</th>
                <th scope="col" className="num">Disk at end</th>
              </tr>
            </thead>
            <tbody>
              {resources.map((r, i) => (
                <tr key={`${r.name}-${r.phase}-${i}`}>
                  <td>{r.name}</td>
                  <td>{r.phase}</td>
                  <td className="num">{r.cpu_percent_mean.toFixed(1)}</td>
                  <td className="num">{r.cpu_percent_max.toFixed(1)}</td>
                  <td className="num">{formatBytes(r.rss_bytes_max)}</td>
                  <td className="num">{r.disk_bytes_end === null || r.disk_bytes_end === undefined ? "—" : formatBytes(r.disk_bytes_end)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </section>
  );
}
