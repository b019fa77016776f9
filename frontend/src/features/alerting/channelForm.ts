import type { Channel, ChannelCreate, ChannelUpdate } from "./api";

/** The channel form: a webhook (URL, optional signing secret) or email addresses. */
export interface ChannelDraft {
  name: string;
  type: "webhook" | "email";
  url: string;
  /** A new secret; "" keeps the one there is (or none). */
  secret: string;
  /** Editing a webhook that has a secret: take it away. */
  removeSecret: boolean;
  /** Addresses separated by commas, spaces or new lines. */
  addresses: string;
  enabled: boolean;
}

export function newChannelDraft(): ChannelDraft {
  return { name: "", type: "webhook", url: "", secret: "", removeSecret: false, addresses: "", enabled: true };
}

export function channelDraft(c: Channel): ChannelDraft {
  return {
    name: c.name,
    type: c.type,
    url: c.config.type === "webhook" ? c.config.url : "",
    secret: "",
    removeSecret: false,
    addresses: c.config.type === "email" ? c.config.addresses.join(", ") : "",
    enabled: c.enabled,
  };
}

/** `a@x.io, b@x.io\nc@x.io` → the addresses, each once. */
export function splitAddresses(text: string): string[] {
  return [...new Set(text.split(/[\s,;]+/).filter(Boolean))];
}

/** Where a channel sends: its URL, or its addresses. */
export function channelTarget(c: Pick<Channel, "config">): string {
  return c.config.type === "webhook" ? c.config.url : c.config.addresses.join(", ");
}

export type ChannelErrors = Partial<Record<string, string>>;

/**
 * Checks the form; a new channel becomes a create request, an existing one the changes to it
 * (the secret only when a new one is typed or it is removed: it is never read back).
 */
export function toChannelRequest(
  draft: ChannelDraft,
  existing?: Channel,
): { create?: ChannelCreate; update?: ChannelUpdate; errors: ChannelErrors } {
  const errors: ChannelErrors = {};
  const name = draft.name.trim();
  if (name === "") errors.name = "Name the channel.";
  else if (name.length > 200) errors.name = "The name must be at most 200 characters.";
  let config: ChannelCreate["config"];
  if (draft.type === "webhook") {
    const url = draft.url.trim();
    if (!/^https?:\/\/\S+$/.test(url)) errors["config.url"] = "The URL must start with http:// or https://.";
    else if (url.length > 2000) errors["config.url"] = "The URL must be at most 2,000 characters.";
    config = { type: "webhook", url };
    if (draft.secret !== "" && (draft.secret.length < 16 || draft.secret.length > 200)) {
      errors.secret = "A signing secret has 16 to 200 characters.";
    }
  } else {
    const addresses = splitAddresses(draft.addresses);
    const bad = addresses.find((a) => !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(a));
    if (addresses.length === 0) errors["config.addresses"] = "Add at least one address.";
    else if (addresses.length > 20) errors["config.addresses"] = "At most 20 addresses.";
    else if (bad) errors["config.addresses"] = `"${bad}" is not an email address.`;
    config = { type: "email", addresses };
  }
  if (Object.keys(errors).length > 0) return { errors };
  if (!existing) {
    const create: ChannelCreate = { name, config, enabled: draft.enabled };
    if (draft.type === "webhook" && draft.secret !== "") create.secret = draft.secret;
    return { create, errors };
  }
  const update: ChannelUpdate = {};
  if (name !== existing.name) update.name = name;
  if (JSON.stringify(config) !== JSON.stringify(existing.config)) update.config = config;
  if (draft.enabled !== existing.enabled) update.enabled = draft.enabled;
  if (draft.type === "webhook") {
    if (draft.secret !== "") update.secret = draft.secret;
    else if (draft.removeSecret && existing.has_secret) update.secret = "";
  }
  return { update, errors };
}
