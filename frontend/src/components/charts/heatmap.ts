/**
 * What heatmaps add to the ECharts build of `echarts.ts`: the heatmap chart and the continuous
 * colour scale (visualMap). Registered on the same instance, from a module of its own that is
 * imported dynamically (`loadHeatmap`), so only a page that draws a heatmap downloads it.
 */
import { HeatmapChart } from "echarts/charts";
import { VisualMapContinuousComponent } from "echarts/components";
import { echarts } from "./echarts";

echarts.use([HeatmapChart, VisualMapContinuousComponent]);

export const HEATMAP_REGISTERED = true;
