import { describe, expect, it } from "vitest";
import { agentCommand, curlCommand, gatewayUrl, nextAgentKeyName } from "./ingestSetup";

describe("gatewayUrl", () => {
  it("takes the address the backend is configured with", () => {
    expect(gatewayUrl("https://ingest.example.com", "vigil.example.com")).toBe("https://ingest.example.com");
  });

  it("falls back to this page's host on the gateway's default port", () => {
    expect(gatewayUrl(null, "127.0.0.1")).toBe("http://127.0.0.1:8001");
    expect(gatewayUrl(undefined, "vigil.example.com")).toBe("http://vigil.example.com:8001");
    expect(gatewayUrl("", "[::1]")).toBe("http://[::1]:8001");
  });
});

describe("commands", () => {
  it("start the agent and send a point to the gateway, with no placeholder left", () => {
    expect(agentCommand("vgi_abc", "http://127.0.0.1:8001")).toBe(
      "VIGIL_INGEST_KEY=vgi_abc vigil-agent -gateway.url=http://127.0.0.1:8001",
    );
    expect(curlCommand("vgi_abc", "http://127.0.0.1:8001")).toBe(
      'curl -i "http://127.0.0.1:8001/v1/write/metric?precision=s" -H "Authorization: Token vgi_abc" --data-binary "weather,city=Oslo temperature=3.5 $(date +%s)"',
    );
  });
});

describe("nextAgentKeyName", () => {
  it("names the first agent key 'agent', then numbers the next ones after the highest", () => {
    expect(nextAgentKeyName([])).toBe("agent");
    expect(nextAgentKeyName(["demo ingest", "grafana"])).toBe("agent");
    expect(nextAgentKeyName(["agent"])).toBe("agent 2");
    expect(nextAgentKeyName(["agent", "agent 2"])).toBe("agent 3");
    expect(nextAgentKeyName(["Agent", "agent 7", "agent 3"])).toBe("agent 8");
    expect(nextAgentKeyName(["agent 2"])).toBe("agent");
  });

  it("tells keys apart by the time when the names are not known", () => {
    const now = new Date(2026, 10, 22, 14, 3).getTime();
    expect(nextAgentKeyName(undefined, now)).toBe("agent 2026-11-22 14:03");
  });
});
