import { LineChart } from "echarts/charts";
import { GridComponent } from "echarts/components";
import * as echarts from "echarts/core";
import { SVGRenderer } from "echarts/renderers";
import { AXIS_LABEL_MARGIN, labelWidth, valueAxisSpace, valueAxisTicks, valueExtent } from "./valueAxis";

echarts.use([LineChart, GridComponent, SVGRenderer]);

/** The ticks ECharts itself puts on a value axis over `data` (rendered server-side, SVG). */
function echartsTicks(values: number[], scale: boolean): number[] {
  const chart = echarts.init(null, null, { renderer: "svg", ssr: true, width: 400, height: 300 });
  chart.setOption({
    xAxis: { type: "time" },
    yAxis: { type: "value", scale },
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
