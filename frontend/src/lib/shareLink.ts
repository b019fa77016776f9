import { resolveTimeRange, type TimeRangeSpec } from "./time";

export interface ShareOptions {
  /** The range the page shows (the link's own `from`/`to`, or the page's default). */
  range: TimeRangeSpec;
  /** The range as absolute times, so the link shows the same minutes whenever it is opened. */
  lockTime: boolean;
  /** Only this panel of a dashboard (`viewPanel`); "" for the whole dashboard, undefined to leave the link's as is. */
  viewPanel?: string;
  now?: number;
}

/**
 * The link to share for the page at `href`: its state (query, variables, comparison…) as it
 * is, with the time range written out (relative, e.g. `now-1h`, or locked to epoch
 * milliseconds) and the panel to show alone, if any.
 */
export function shareLink(href: string, { range, lockTime, viewPanel, now = Date.now() }: ShareOptions): string {
  const url = new URL(href);
  let [from, to] = [range.from, range.to];
  if (lockTime) {
    const [start, end] = resolveTimeRange(range, now);
    [from, to] = [String(start), String(end)];
  }
  url.searchParams.set("from", from);
  url.searchParams.set("to", to);
  if (viewPanel !== undefined) {
    if (viewPanel) url.searchParams.set("viewPanel", viewPanel);
    else url.searchParams.delete("viewPanel");
  }
  url.hash = "";
  return url.toString();
}

/** Whether `range` moves with time (`now-1h` → `now`): only such a range can be locked. */
export function isRelativeRange(range: TimeRangeSpec): boolean {
  return range.from.startsWith("now") || range.to.startsWith("now");
}
