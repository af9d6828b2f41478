import { formatLocal } from '../../common/time/format';
import type { Bar } from '../reports/svg-chart';

/** Outcomes reached in one minute: messages delivered and failed then. */
export interface OutcomeMinute {
  minute: Date;
  delivered: number;
  failed: number;
}

export interface TimelineRow {
  /** The interval's start, on the account's clocks. */
  from: string;
  delivered: number;
  failed: number;
  /** Messages delivered by the interval's end, as a share of those accepted (`97.5%`). */
  deliveredByThen: string;
  /** Delivered of those that reached an outcome by the interval's end: the page's delivery rate then. */
  rateByThen: string;
}

export interface DeliveryTimeline {
  /** `minute`, `5 minutes`, `hour`: the width of each bar, as it reads after "one bar per". */
  interval: string;
  bars: Bar[];
  rows: TimelineRow[];
}

/** The widths a timeline may use, smallest first; the first that spans the outcomes in MAX_BARS is taken. */
const INTERVALS_MIN = [1, 5, 15, 30, 60, 180, 360, 720, 1440];
/** Bars a campaign's chart shows at most, so every bar is wide enough to see and its table stays short. */
export const MAX_BARS = 48;

function percent(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 1000) / 10;
}

/** How a bar's width reads after "one bar per": `minute`, `5 minutes`, `hour`, `3 hours`, `day`. */
function intervalText(minutes: number): string {
  if (minutes === 1) return 'minute';
  if (minutes === 1440) return 'day';
  if (minutes % 60 !== 0) return `${minutes} minutes`;
  return minutes === 60 ? 'hour' : `${minutes / 60} hours`;
}

/**
 * A campaign's delivery over time: its outcomes (one row per minute that saw any) in equal intervals from
 * the first outcome's interval to the last's, each bar the share of the accepted messages delivered by
 * the interval's end. Intervals are whole multiples of UTC minutes; every Australian zone is a whole number
 * of quarter hours from UTC, so an interval of up to 15 minutes also starts on the account's quarter hours.
 */
export function deliveryTimeline(outcomes: OutcomeMinute[], accepted: number, timeZone: string): DeliveryTimeline | null {
  if (outcomes.length === 0) return null;
  const first = outcomes[0].minute.getTime();
  const last = outcomes[outcomes.length - 1].minute.getTime();
  const minutes = INTERVALS_MIN.find((m) => Math.floor(last / (m * 60_000)) - Math.floor(first / (m * 60_000)) < MAX_BARS) ?? INTERVALS_MIN[INTERVALS_MIN.length - 1];
  const width = minutes * 60_000;
  const start = Math.floor(first / width) * width;
  const count = Math.floor((last - start) / width) + 1;
  const delivered = new Array<number>(count).fill(0);
  const failed = new Array<number>(count).fill(0);
  for (const o of outcomes) {
    const i = Math.floor((o.minute.getTime() - start) / width);
    delivered[i] += o.delivered;
    failed[i] += o.failed;
  }
  const sameDay = formatLocal(new Date(start), timeZone).slice(0, 10) === formatLocal(new Date(start + (count - 1) * width), timeZone).slice(0, 10);
  const bars: Bar[] = [];
  const rows: TimelineRow[] = [];
  let deliveredSoFar = 0;
  let failedSoFar = 0;
  for (let i = 0; i < count; i++) {
    deliveredSoFar += delivered[i];
    failedSoFar += failed[i];
    const from = formatLocal(new Date(start + i * width), timeZone);
    const share = percent(deliveredSoFar, accepted);
    // The axis has room for a time (or the day of the month and a time); the table gives each in full.
    bars.push({ label: sameDay ? from.slice(11, 16) : from.slice(8, 16), value: share, shown: `${share}%` });
    rows.push({ from, delivered: delivered[i], failed: failed[i], deliveredByThen: `${share}%`, rateByThen: `${percent(deliveredSoFar, deliveredSoFar + failedSoFar)}%` });
  }
  return { interval: intervalText(minutes), bars, rows };
}
