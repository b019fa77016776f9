import { describe, expect, it } from "vitest";
import { describeMatchers, describeSchedule, newSilenceDraft, toSilenceRequest, type SilenceDraft } from "./silenceForm";

const NOW = Date.UTC(2026, 10, 28, 12, 0); // 13:00 in Paris

const draft = (patch: Partial<SilenceDraft> = {}): SilenceDraft => ({
  ...newSilenceDraft({ monitorId: "m1", tags: { host: "web-1", __name__: "x" }, now: NOW, timeZone: "Europe/Paris" }),
  comment: "Maintenance of web-1",
  ...patch,
});

describe("newSilenceDraft", () => {
  it("is prefilled with the monitor and the group's tags (not internal ones), for 2 hours from now", () => {
    const d = newSilenceDraft({ monitorId: "m1", tags: { region: "eu", host: "web-1", __name__: "cpu" }, now: NOW, timeZone: "Europe/Paris" });
    expect(d.monitorId).toBe("m1");
    expect(d.matchers).toEqual([
      { label: "host", op: "=", value: "web-1" },
      { label: "region", op: "=", value: "eu" },
    ]);
    expect(d.startsAt).toBe("");
    expect(d.endsAt).toBe("2026-11-28T15:00");
    expect(d.timeZone).toBe("Europe/Paris");
  });
});

describe("toSilenceRequest", () => {
  it("sends a one-off silence with its end read in the chosen zone, starting now", () => {
    expect(toSilenceRequest(draft(), NOW)).toEqual({
      body: {
        comment: "Maintenance of web-1",
        monitor_id: "m1",
        matchers: [{ label: "host", op: "=", value: "web-1" }],
        ends_at: "2026-11-28T14:00:00.000Z",
      },
      errors: {},
    });
    const later = toSilenceRequest(draft({ startsAt: "2026-11-29T02:00", endsAt: "2026-11-29T04:30", timeZone: "UTC" }), NOW);
    expect(later.body).toMatchObject({ starts_at: "2026-11-29T02:00:00.000Z", ends_at: "2026-11-29T04:30:00.000Z" });
  });

  it("sends a weekly silence as a recurrence in its zone, with an optional end", () => {
    const { body, errors } = toSilenceRequest(
      draft({ mode: "weekly", weekdays: [6, 5, 5], startTime: "02:00", duration: "90m", until: "2027-01-01T00:00" }),
      NOW,
    );
    expect(errors).toEqual({});
    expect(body).toEqual({
      comment: "Maintenance of web-1",
      monitor_id: "m1",
      matchers: [{ label: "host", op: "=", value: "web-1" }],
      recurrence: { weekdays: [5, 6], start: "02:00", duration_minutes: 90, timezone: "Europe/Paris" },
      ends_at: "2026-12-31T23:00:00.000Z",
    });
  });

  it("matches every monitor by tags, with each operator, leaving empty rows out", () => {
    const { body } = toSilenceRequest(
      draft({
        monitorId: "",
        matchers: [
          { label: "env", op: "!=", value: "dev" },
          { label: "host", op: "=~", value: "web-\\d+" },
          { label: "", op: "=", value: "" },
        ],
      }),
      NOW,
    );
    expect(body?.monitor_id).toBeNull();
    expect(body?.matchers).toEqual([
      { label: "env", op: "!=", value: "dev" },
      { label: "host", op: "=~", value: "web-\\d+" },
    ]);
  });

  it("says what is wrong, by field", () => {
    expect(
      toSilenceRequest(draft({ comment: " ", monitorId: "", matchers: [], endsAt: "2026-11-28T12:00" }), NOW).errors,
    ).toEqual({
      comment: "Say why (a comment is required): the people who see the silence read it.",
      matchers: "Choose a monitor or add a tag matcher: a silence of everything is not allowed.",
      ends_at: "It must end in the future.",
    });
    expect(
      toSilenceRequest(draft({ startsAt: "2026-11-29T10:00", endsAt: "2026-11-29T09:00" }), NOW).errors.ends_at,
    ).toBe("It must end after it starts.");
    const weekly = toSilenceRequest(
      draft({ mode: "weekly", weekdays: [], startTime: "25:00", duration: "30s", matchers: [{ label: "host", op: "=~", value: "web-(" }] }),
      NOW,
    );
    expect(weekly.body).toBeUndefined();
    expect(Object.keys(weekly.errors).sort()).toEqual(["duration", "matchers.0.value", "start", "weekdays"]);
    expect(weekly.errors.duration).toBe("Duration: use whole minutes.");
    expect(weekly.errors["matchers.0.value"]).toMatch(/^Not a regular expression: /);
  });
});

describe("describing silences", () => {
  it("reads matchers and schedules", () => {
    expect(describeMatchers([{ label: "host", op: "=~", value: "web-.*" }, { label: "env", value: "prod" }])).toBe(
      "host =~ web-.*, env = prod",
    );
    expect(
      describeSchedule({
        starts_at: "2026-11-28T12:00:00Z",
        ends_at: null,
        recurrence: { weekdays: [0, 5], start: "02:00", duration_minutes: 120, timezone: "Europe/Paris" },
      }),
    ).toBe("Every Mon, Sat at 02:00 for 2h (Europe/Paris)");
    expect(describeSchedule({ starts_at: "2026-11-28T12:00:00Z", ends_at: "2026-11-28T14:30:00Z", recurrence: null }, "UTC")).toBe(
      "2026-11-28 12:00 → 2026-11-28 14:30",
    );
  });
});
