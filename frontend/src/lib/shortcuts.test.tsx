import { fireEvent, render } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { useShortcuts } from "./shortcuts";

function Bound({ bindings }: { bindings: Record<string, () => void> }) {
  useShortcuts(bindings);
  return (
    <div>
      <input aria-label="field" />
      <div role="menu">
        <button type="button">item</button>
      </div>
    </div>
  );
}

const press = (key: string, init: KeyboardEventInit = {}, target: Element = document.body) =>
  fireEvent.keyDown(target, { key, ...init });

describe("useShortcuts", () => {
  it("runs one key and two-key sequences, arrow keys by name", () => {
    const help = vi.fn();
    const dashboards = vi.fn();
    const earlier = vi.fn();
    render(<Bound bindings={{ "?": help, "g d": dashboards, "t left": earlier }} />);
    press("?", { shiftKey: true });
    press("g");
    press("d");
    press("t");
    press("ArrowLeft");
    expect([help, dashboards, earlier].map((f) => f.mock.calls.length)).toEqual([1, 1, 1]);
  });

  it("forgets the first key of a sequence after another key or after a while", () => {
    const dashboards = vi.fn();
    render(<Bound bindings={{ "g d": dashboards }} />);
    press("g");
    press("x");
    press("d");
    expect(dashboards).not.toHaveBeenCalled();
    // a late second key: the events' own time stamps say how late
    const at = (key: string, ms: number): void => {
      const e = new KeyboardEvent("keydown", { key, bubbles: true });
      Object.defineProperty(e, "timeStamp", { value: ms });
      document.body.dispatchEvent(e);
    };
    at("g", 1_000);
    at("d", 7_000);
    expect(dashboards).not.toHaveBeenCalled();
    at("g", 8_000);
    at("d", 8_400);
    expect(dashboards).toHaveBeenCalledTimes(1);
  });

  it("leaves keys alone in fields, menus, with modifiers and when something else took them", () => {
    const dashboards = vi.fn();
    const { getByLabelText, getByRole } = render(<Bound bindings={{ "g d": dashboards, "?": dashboards }} />);
    press("g", {}, getByLabelText("field"));
    press("d", {}, getByLabelText("field"));
    press("g", {}, getByRole("button"));
    press("d", {}, getByRole("button"));
    press("g", { ctrlKey: true });
    press("d", { ctrlKey: true });
    const taken = new KeyboardEvent("keydown", { key: "?", bubbles: true, cancelable: true });
    taken.preventDefault();
    document.body.dispatchEvent(taken);
    expect(dashboards).not.toHaveBeenCalled();
  });
});

describe("useShortcuts on several pages at once", () => {
  it("lets a sequence bound by one take its second key before a single key bound by another", () => {
    const explore = vi.fn();
    const edit = vi.fn();
    // the page's bindings mount first (children's effects run before their parent's)
    render(
      <>
        <Bound bindings={{ e: edit }} />
        <Bound bindings={{ "g e": explore }} />
      </>,
    );
    press("g");
    press("e");
    expect(explore).toHaveBeenCalledTimes(1);
    expect(edit).not.toHaveBeenCalled();
    press("e");
    expect(edit).toHaveBeenCalledTimes(1);
  });
});
