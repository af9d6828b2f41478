import { hundredthsToFixed } from '../billing/money';
import { formatUtc } from '../common/time/format';

/** How the pages write values: times in UTC like the API, credits and dollars with two decimals. */
export const show = {
  time: (date: Date | null | undefined): string => (date ? `${formatUtc(date)} UTC` : ''),
  credits: (hundredths: number): string => hundredthsToFixed(hundredths),
  /** AUD cents as dollars: 50000 → 500.00. */
  dollars: (cents: number): string => hundredthsToFixed(cents),
};

/** Links to the previous and next page of a list, keeping its filters. */
export function pager(path: string, filters: Record<string, string>, page: { limit: number; offset: number }, total: number, shown: number) {
  if (total === 0) return null;
  const link = (offset: number) => {
    const query = new URLSearchParams({ ...Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== '')), offset: String(offset) });
    return `${path}?${query.toString()}`;
  };
  return {
    summary: `${page.offset + 1}–${page.offset + shown} of ${total}`,
    previous: page.offset > 0 ? link(Math.max(0, page.offset - page.limit)) : undefined,
    next: page.offset + shown < total ? link(page.offset + page.limit) : undefined,
  };
}
