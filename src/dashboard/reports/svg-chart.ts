/** A bar: its label on the axis, its value, and how the value reads (`12`, `98.5%`, `3.20 credits`). */
export interface Bar {
  label: string;
  value: number;
  shown: string;
}

export interface BarChart {
  /** Unique on the page: the ids of the chart's title and description derive from it. */
  id: string;
  title: string;
  /** A sentence summarising the chart for screen readers (the table beside it holds every value). */
  description: string;
  bars: Bar[];
  /** The top of the scale; defaults to the largest value. */
  max?: number;
}

/** Everything the bar-chart partial draws, in SVG user units: numbers and texts only, escaped by the template. */
export interface ChartGeometry {
  id: string;
  title: string;
  description: string;
  width: number;
  height: number;
  axis: { x1: number; x2: number; y: number };
  grid: Array<{ y: string; label: string; labelX: number }>;
  bars: Array<{ x: string; y: string; width: string; height: string; tooltip: string; label?: string; labelX: string; labelY: number }>;
  empty: { x: number; y: number } | null;
}

const WIDTH = 640;
const HEIGHT = 220;
const PLOT = { left: 48, right: 8, top: 12, bottom: 36 };
/** Axis labels a chart can show without overlapping; with more bars, every nth is labelled. */
const MAX_AXIS_LABELS = 10;

/** A round scale top at or above `max` (1, 2 or 5 times a power of ten), so gridlines read as plain numbers. */
export function niceMax(max: number): number {
  if (max <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 5, 10]) if (step * power >= max) return step * power;
  return 10 * power;
}

function number(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(2).replace(/\.?0+$/, '');
}

/**
 * A vertical bar chart's geometry, computed on the server and drawn by the `bar-chart` partial as inline
 * SVG: no script, no style attribute (the CSP allows neither inline), every text escaped by the template.
 */
export function barChart(chart: BarChart): ChartGeometry {
  const top = niceMax(chart.max ?? Math.max(0, ...chart.bars.map((b) => b.value)));
  const plotWidth = WIDTH - PLOT.left - PLOT.right;
  const plotHeight = HEIGHT - PLOT.top - PLOT.bottom;
  const baseline = PLOT.top + plotHeight;
  const slot = chart.bars.length > 0 ? plotWidth / chart.bars.length : plotWidth;
  const barWidth = Math.max(1, slot * 0.7);
  const labelEvery = Math.max(1, Math.ceil(chart.bars.length / MAX_AXIS_LABELS));
  const y = (value: number) => baseline - (Math.max(0, value) / top) * plotHeight;
  return {
    id: chart.id,
    title: chart.title,
    description: chart.description,
    width: WIDTH,
    height: HEIGHT,
    axis: { x1: PLOT.left, x2: WIDTH - PLOT.right, y: baseline },
    grid: [0, 0.5, 1].map((f) => ({ y: y(top * f).toFixed(1), label: number(top * f), labelX: PLOT.left - 6 })),
    bars: chart.bars.map((bar, i) => {
      const x = PLOT.left + i * slot + (slot - barWidth) / 2;
      const barTop = y(bar.value);
      return {
        x: x.toFixed(1),
        y: barTop.toFixed(1),
        width: barWidth.toFixed(1),
        height: (baseline - barTop).toFixed(1),
        tooltip: `${bar.label}: ${bar.shown}`,
        label: i % labelEvery === 0 ? bar.label : undefined,
        labelX: (x + barWidth / 2).toFixed(1),
        labelY: HEIGHT - PLOT.bottom + 16,
      };
    }),
    empty: chart.bars.length === 0 ? { x: WIDTH / 2, y: HEIGHT / 2 } : null,
  };
}
