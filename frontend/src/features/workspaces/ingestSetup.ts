import { formatDateTime } from "@/lib/time";

/** The ingest gateway's port unless its operator moved it (`VIGIL_GATEWAY_PORT`). */
export const DEFAULT_GATEWAY_PORT = 8001;

/**
 * Where agents send data: the address the backend is configured with
 * (`VIGIL_PUBLIC_GATEWAY_URL`), else the host this page was opened at on the gateway's
 * default port — right for a stack on one machine (`http://127.0.0.1:8001`).
 */
export function gatewayUrl(configured: string | null | undefined, pageHostname: string): string {
  return configured?.trim() || `http://${pageHostname}:${DEFAULT_GATEWAY_PORT}`;
}

/** The command line that starts vigil-agent with `key`; the key travels in the environment, out of `ps`. */
export function agentCommand(key: string, gateway: string): string {
  return `VIGIL_INGEST_KEY=${key} vigil-agent -gateway.url=${gateway}`;
}

/** One point in Influx line protocol, sent with curl: the quickest check that the key works. */
export function curlCommand(key: string, gateway: string): string {
  return (
    `curl -i "${gateway}/v1/write/metric?precision=s" -H "Authorization: Token ${key}" ` +
    `--data-binary "weather,city=Oslo temperature=3.5 $(date +%s)"`
  );
}

const KEY_NAME = "agent";

/**
 * A name for another agent key that no key of the workspace has: "agent", then "agent 2",
 * "agent 3" … after the highest taken. Without the list of names (it failed to load), the
 * time tells it apart: "agent 2026-11-22 14:03".
 */
export function nextAgentKeyName(existing: readonly string[] | undefined, now: number = Date.now()): string {
  if (existing === undefined) return `${KEY_NAME} ${formatDateTime(now, undefined, false)}`;
  const taken = existing.map((n) => n.trim().toLowerCase());
  if (!taken.includes(KEY_NAME)) return KEY_NAME;
  const numbers = taken.map((n) => /^agent (\d+)$/.exec(n)?.[1]).map((d) => (d ? Number(d) : 1));
  return `${KEY_NAME} ${Math.max(1, ...numbers) + 1}`;
}
