import { LineChart } from "echarts/charts";
import { GridComponent } from "echarts/components";
import * as echarts from "echarts/core";
import { SVGRenderer } from "echarts/renderers";
import { formatValue } from "./units";
import {
  AXIS_LABEL_MARGIN,
  distinctTickFormat,
  labelWidth,
  valueAxisBounds,
  valueAxisSpace,
  valueAxisTicks,
  valueExtent,
  withoutFixedBounds,
} from "./valueAxis";

echarts.use([LineChart, GridComponent, SVGRenderer]);

/** The ticks ECharts itself puts on a value axis over `data` (rendered server-side, SVG). */
function echartsTicks(values: number[], scale: boolean, bounds: object = {}): number[] {
  const chart = echarts.init(null, null, { renderer: "svg", ssr: true, width: 400, height: 300 });
  chart.setOption({
    xAxis: { type: "time" },
    yAxis: { type: "value", scale, ...bounds },
    series: [{ type: "line", data: values.map((v, i) => [i * 60_000, v]) }],
  });
  // getTicks is not part of ECharts' typed API
  const model = (chart as unknown as { getModel(): { getComponent(n: string): { axis: { scale: { getTicks(): { value: number }[] } } } } }).getModel();
  const ticks = model.getComponent("yAxis").axis.scale.getTicks().map((t) => t.value);
  chart.dispose();
  return ticks;
}

describe("valueAxisTicks", () => {
  const cases: number[][] = [
    [3, 97],
    [0.12, 0.31],
    [-42, 17],
    [0, 0],
    [10, 10],
    [-3, -3],
    [1_234_567, 9_876_543],
    [0.000_12, 0.000_9],
    [99.2, 99.9],
    [40, 90],
    [-9, -3],
  ];

  it.each(cases)("matches ECharts' own ticks over [%d, %d] with scale on", (min, max) => {
    expect(valueAxisTicks(min, max)).toEqual(echartsTicks([min, max], true));
  });

  it.each(cases)("matches ECharts' own ticks over [%d, %d] from zero", (min, max) => {
    expect(valueAxisTicks(min, max, true)).toEqual(echartsTicks([min, max], false));
  });

  it("has a fallback for no data and never lists more than 50 ticks", () => {
    expect(valueAxisTicks(Infinity, -Infinity)).toEqual([0, 1]);
    expect(valueAxisTicks(0, 1e300).length).toBeLessThanOrEqual(50);
  });
});

describe("byte axes", () => {
  const GiB = 1024 ** 3;
  const MiB = 1024 ** 2;
  const cases: [number, number][] = [
    [0.2 * GiB, 1.9 * GiB],
    [3 * MiB, 97 * MiB],
    [0, 2.2e12],
    [1000, 800_000],
    [12, 930],
    [-5 * MiB, 40 * MiB],
    [7 * GiB, 7 * GiB],
  ];

  it.each(cases)("step by a power of two over [%d, %d], and ECharts draws those ticks", (min, max) => {
    for (const includeZero of [false, true]) {
      const ticks = valueAxisTicks(min, max, includeZero, "bytes");
      const step = ticks[1] - ticks[0];
      expect(Math.log2(step) % 1).toBe(0);
      expect(ticks.length).toBeGreaterThanOrEqual(3);
      expect(ticks.length).toBeLessThanOrEqual(9);
      expect(ticks[0]).toBeLessThanOrEqual(includeZero ? Math.min(min, 0) : min);
      expect(ticks[ticks.length - 1]).toBeGreaterThanOrEqual(max);
      const bounds = valueAxisBounds(min, max, includeZero, "bytes/s");
      expect(echartsTicks([min, max], !includeZero, bounds)).toEqual(ticks);
    }
  });

  it("labels read as round binary sizes", () => {
    const labels = valueAxisTicks(0.2 * GiB, 1.9 * GiB, false, "bytes").map((v) => formatValue(v, "bytes"));
    expect(labels).toEqual(["0 B", "512 MiB", "1 GiB", "1.5 GiB", "2 GiB"]);
    // ECharts' decimal steps, for comparison: 0, 286 MiB, 572 MiB, 858 MiB, 1.12 GiB …
    expect(valueAxisTicks(0.2 * GiB, 1.9 * GiB).map((v) => formatValue(v, "bytes")).slice(0, 5)).toEqual([
      "0 B",
      "286 MiB",
      "572 MiB",
      "858 MiB",
      "1.12 GiB",
    ]);
  });

  it("leave other units to ECharts, and are dropped when a legend hides series", () => {
    expect(valueAxisBounds(3, 97, false, "percent")).toEqual({});
    expect(valueAxisBounds(3, 97, false)).toEqual({});
    expect(valueAxisBounds(Infinity, -Infinity, false, "bytes")).toEqual({});
    const option = { yAxis: { type: "value", scale: true, ...valueAxisBounds(0, 3 * GiB, false, "bytes") } };
    expect(option.yAxis).toMatchObject({ min: 0, max: 3 * GiB, interval: GiB });
    expect(withoutFixedBounds(option)).toEqual({ yAxis: { type: "value", scale: true } });
    const plain = { yAxis: { type: "value" } };
    expect(withoutFixedBounds(plain)).toBe(plain);
  });
});

describe("valueAxisSpace", () => {
  it("is the widest formatted label plus the label margin", () => {
    const format = (v: number): string => `${v} MiB`;
    const widest = Math.max(...[0, 200, 400, 600, 800, 1000].map((v) => labelWidth(format(v))));
    expect(valueAxisSpace(12, 930, format)).toBe(Math.ceil(widest) + AXIS_LABEL_MARGIN);
  });

  it("grows with the labels, not with the number of points", () => {
    const short = valueAxisSpace(0, 9, String);
    const long = valueAxisSpace(0, 9_000_000, String);
    expect(long).toBeGreaterThan(short);
  });
});

describe("valueExtent", () => {
  it("skips gaps and widens what it is given", () => {
    const extent = valueExtent([
      [1, 5],
      [2, null],
      [3, -2],
      [4, Number.NaN],
    ]);
    expect(extent).toEqual([-2, 5]);
    expect(valueExtent([[5, 9]], extent)).toEqual([-2, 9]);
  });
});

describe("distinctTickFormat", () => {
  const plain = (v: number): string => formatValue(v, "short");
  const withDecimals = (v: number, d: number): string => formatValue(v, "short", d);

  it("keeps the unit's own format when every tick already reads differently", () => {
    const f = distinctTickFormat(0, 1000, plain, withDecimals);
    expect(f).toBe(plain);
    expect(valueAxisTicks(0, 1000).map(f)).toEqual(["0", "200", "400", "600", "800", "1k"]);
  });

  it("adds the fewest decimals that tell ticks apart which rounding made equal", () => {
    // ticks 107, 107.5, … 110.5: three significant digits read 108 twice
    expect(valueAxisTicks(107.2, 110.4).map(plain)).toContain("108");
    const f = distinctTickFormat(107.2, 110.4, plain, withDecimals);
    const labels = valueAxisTicks(107.2, 110.4).map(f);
    expect(labels).toEqual(["107.0", "107.5", "108.0", "108.5", "109.0", "109.5", "110.0", "110.5"]);
    expect(new Set(labels).size).toBe(labels.length);
  });
});
