import { describe, expect, it } from "vitest";
import type { Channel } from "./api";
import { channelDraft, newChannelDraft, splitAddresses, toChannelRequest } from "./channelForm";

const HOOK: Channel = {
  id: "c1",
  workspace_id: "w1",
  name: "Ops hook",
  type: "webhook",
  config: { type: "webhook", url: "https://hooks.example.com/a" },
  has_secret: true,
  enabled: true,
  created_by: null,
  created_at: "2026-11-28T08:00:00Z",
  updated_at: "2026-11-28T08:00:00Z",
};

describe("channel form", () => {
  it("creates a webhook with its secret, or an email channel with its addresses", () => {
    const hook = toChannelRequest({ ...newChannelDraft(), name: " Ops ", url: "https://h.example.com/x", secret: "0123456789abcdef" });
    expect(hook).toEqual({
      create: { name: "Ops", config: { type: "webhook", url: "https://h.example.com/x" }, enabled: true, secret: "0123456789abcdef" },
      errors: {},
    });
    const mail = toChannelRequest({ ...newChannelDraft(), type: "email", name: "On call", addresses: "a@x.io,\nb@x.io; a@x.io" });
    expect(mail.create?.config).toEqual({ type: "email", addresses: ["a@x.io", "b@x.io"] });
  });

  it("refuses what the API would, by field", () => {
    expect(toChannelRequest({ ...newChannelDraft(), url: "ftp://x", secret: "short" }).errors).toEqual({
      name: "Name the channel.",
      "config.url": "The URL must start with http:// or https://.",
      secret: "A signing secret has 16 to 200 characters.",
    });
    expect(toChannelRequest({ ...newChannelDraft(), type: "email", name: "m", addresses: "a@x.io nobody" }).errors).toEqual({
      "config.addresses": '"nobody" is not an email address.',
    });
    expect(splitAddresses("")).toEqual([]);
  });

  it("changes only what changed; the secret only when a new one is typed or it is removed", () => {
    expect(toChannelRequest(channelDraft(HOOK), HOOK)).toEqual({ update: {}, errors: {} });
    expect(toChannelRequest({ ...channelDraft(HOOK), enabled: false, removeSecret: true }, HOOK).update).toEqual({
      enabled: false,
      secret: "",
    });
    expect(toChannelRequest({ ...channelDraft(HOOK), url: "https://hooks.example.com/b", secret: "fedcba9876543210" }, HOOK).update).toEqual({
      config: { type: "webhook", url: "https://hooks.example.com/b" },
      secret: "fedcba9876543210",
    });
  });
});
