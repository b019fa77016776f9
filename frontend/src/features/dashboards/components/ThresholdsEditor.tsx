import type { ReactElement } from "react";
import type { QueryPanel } from "@/api/dashboards";
import { BASE_COLOR } from "@/components/charts/thresholds";
import { Button } from "@/components/ui/Button";

type Threshold = NonNullable<QueryPanel["thresholds"]>[number];

/** Named colours the schema accepts, as hex for the colour input. */
const NAMED: Record<string, string> = {
  green: "#3ba272",
  yellow: "#fade2a",
  orange: "#ff9830",
  red: "#e02f44",
  blue: "#5470c6",
  purple: "#9a60b4",
};
const NEXT_COLORS = ["#ff9830", "#e02f44", "#9a60b4", "#5470c6"];

/** `#abc` / `orange` → `#rrggbb`, which `<input type="color">` needs. */
export function toHexColor(color: string): string {
  if (/^#[0-9a-fA-F]{6}$/.test(color)) return color.toLowerCase();
  if (/^#[0-9a-fA-F]{3}$/.test(color)) return `#${[...color.slice(1)].map((c) => c + c).join("")}`.toLowerCase();
  if (/^#[0-9a-fA-F]{8}$/.test(color)) return color.slice(0, 7).toLowerCase();
  return NAMED[color] ?? "#808080";
}

export interface ThresholdsEditorProps {
  value: Threshold[];
  onChange: (value: Threshold[]) => void;
}

/** Steps of value → colour; the base colour applies below the first step. */
export function ThresholdsEditor({ value, onChange }: ThresholdsEditorProps): ReactElement {
  const set = (i: number, t: Partial<Threshold>): void => onChange(value.map((x, j) => (j === i ? { ...x, ...t } : x)));
  const add = (): void => {
    const top = value.reduce((m, t) => Math.max(m, t.value), 0);
    onChange([...value, { value: value.length ? top + 10 : 80, color: NEXT_COLORS[value.length % NEXT_COLORS.length] }]);
  };
  return (
    <fieldset className="thresholds">
      <legend>Thresholds</legend>
      <div className="threshold-row muted small">
        <span className="swatch" style={{ background: BASE_COLOR }} aria-hidden="true" />
        Base (below the first step)
      </div>
      {value.map((t, i) => (
        <div className="threshold-row" key={i} data-testid="threshold-row">
          <input
            type="color"
            aria-label={`Colour of threshold ${i + 1}`}
            value={toHexColor(t.color)}
            onChange={(e) => set(i, { color: e.target.value })}
          />
          <input
            type="number"
            aria-label={`Value of threshold ${i + 1}`}
            value={Number.isFinite(t.value) ? t.value : ""}
            step="any"
            onChange={(e) => set(i, { value: e.target.value === "" ? 0 : Number(e.target.value) })}
          />
          <Button
            size="sm"
            variant="ghost"
            aria-label={`Remove threshold ${i + 1}`}
            onClick={() => onChange(value.filter((_, j) => j !== i))}
          >
            ✕
          </Button>
        </div>
      ))}
      <Button size="sm" onClick={add}>
        Add threshold
      </Button>
    </fieldset>
  );
}
