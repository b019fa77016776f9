import type { ReactElement } from "react";
import type { BenchmarkRunDocument } from "../api";
import { formatBytes } from "../units";

/** Where the run happened: machine, versions, load generator, command. */
export function EnvironmentCard({ run }: { run: BenchmarkRunDocument }): ReactElement {
  const env = run.environment;
  const machine: [string, string][] = [
    ["CPU", env.cpu_model],
    ["Logical CPUs", String(env.cpu_count)],
    ["Physical cores", env.cpu_physical_cores === null || env.cpu_physical_cores === undefined ? "—" : String(env.cpu_physical_cores)],
    ["Memory", formatBytes(env.memory_bytes)],
    ["Kernel", env.kernel],
    ["OS", env.os],
    ["glibc", env.glibc],
    ["Python", env.python],
    ["Go", env.go ?? "—"],
    ["Host", env.hostname],
  ];
  const versions = Object.entries(env.system_versions ?? {}).sort(([a], [b]) => a.localeCompare(b));
  return (
    <section className="card" aria-labelledby="environment-heading" data-testid="environment">
      <h2 id="environment-heading">Environment</h2>
      <div className="env-grid">
        <dl className="env-list">
          {machine.map(([k, v]) => (
            <div key={k}>
              <dt>{k}</dt>
              <dd>{v}</dd>
            </div>
          ))}
        </dl>
        <div>
          <h3 className="small-heading">System versions</h3>
          <dl className="env-list">
            {versions.length === 0 ? <p className="muted">None recorded.</p> : null}
            {versions.map(([k, v]) => (
              <div key={k}>
                <dt>{k}</dt>
                <dd>{v}</dd>
              </div>
            ))}
          </dl>
          <h3 className="small-heading">Load generator</h3>
          <p>
            <strong>{run.generator.kind}</strong> {run.generator.detail ? <span className="muted">— {run.generator.detail}</span> : null}
          </p>
          <h3 className="small-heading">Command</h3>
          <pre className="command">{(run.command ?? []).join(" ") || "—"}</pre>
        </div>
      </div>
    </section>
  );
}
