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

const WIDTH = 640;
const HEIGHT = 220;
const PLOT = { left: 48, right: 8, top: 12, bottom: 36 };
/** Axis labels a chart can show without overlapping; with more bars, every nth is labelled. */
const MAX_AXIS_LABELS = 10;
const BAR_COLOUR = '#0a58a8';
const AXIS_COLOUR = '#4f5660';
const GRID_COLOUR = '#d5dae0';

/** Text for SVG markup: the five XML specials escaped. */
export function xmlText(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

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
 * A vertical bar chart as an SVG document fragment, drawn on the server: no script, no style attribute
 * (the CSP allows neither inline), presentation attributes only. Accessible as one image named by its
 * title and description; each bar carries a tooltip title with its label and value.
 */
export function barChartSvg(chart: BarChart): string {
  const top = niceMax(chart.max ?? Math.max(0, ...chart.bars.map((b) => b.value)));
  const plotWidth = WIDTH - PLOT.left - PLOT.right;
  const plotHeight = HEIGHT - PLOT.top - PLOT.bottom;
  const slot = chart.bars.length > 0 ? plotWidth / chart.bars.length : plotWidth;
  const barWidth = Math.max(1, slot * 0.7);
  const labelEvery = Math.max(1, Math.ceil(chart.bars.length / MAX_AXIS_LABELS));
  const y = (value: number) => PLOT.top + plotHeight - (Math.max(0, value) / top) * plotHeight;

  const grid = [0, 0.5, 1]
    .map((f) => {
      const gy = y(top * f).toFixed(1);
      return `<line x1="${PLOT.left}" x2="${WIDTH - PLOT.right}" y1="${gy}" y2="${gy}" stroke="${GRID_COLOUR}" stroke-width="1"/><text x="${PLOT.left - 6}" y="${gy}" dy="4" text-anchor="end" font-size="11" fill="${AXIS_COLOUR}">${xmlText(number(top * f))}</text>`;
    })
    .join('');
  const bars = chart.bars
    .map((bar, i) => {
      const x = PLOT.left + i * slot + (slot - barWidth) / 2;
      const by = y(bar.value);
      const rect = `<rect x="${x.toFixed(1)}" y="${by.toFixed(1)}" width="${barWidth.toFixed(1)}" height="${(PLOT.top + plotHeight - by).toFixed(1)}" fill="${BAR_COLOUR}"><title>${xmlText(`${bar.label}: ${bar.shown}`)}</title></rect>`;
      const label =
        i % labelEvery === 0
          ? `<text x="${(x + barWidth / 2).toFixed(1)}" y="${HEIGHT - PLOT.bottom + 16}" text-anchor="middle" font-size="11" fill="${AXIS_COLOUR}">${xmlText(bar.label)}</text>`
          : '';
      return rect + label;
    })
    .join('');
  const empty = chart.bars.length === 0 ? `<text x="${WIDTH / 2}" y="${HEIGHT / 2}" text-anchor="middle" font-size="13" fill="${AXIS_COLOUR}">No data for this period</text>` : '';
  const titleId = `${chart.id}-title`;
  const descId = `${chart.id}-desc`;
  return (
    `<svg class="chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="${titleId} ${descId}" xmlns="http://www.w3.org/2000/svg">` +
    `<title id="${titleId}">${xmlText(chart.title)}</title><desc id="${descId}">${xmlText(chart.description)}</desc>` +
    `${grid}${bars}${empty}` +
    `<line x1="${PLOT.left}" x2="${WIDTH - PLOT.right}" y1="${PLOT.top + plotHeight}" y2="${PLOT.top + plotHeight}" stroke="${AXIS_COLOUR}" stroke-width="1"/>` +
    `</svg>`
  );
}
