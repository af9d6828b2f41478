import { CREDIT_TIERS } from '../../purchases/pricing';

/** The price table the page shows, from the tiers the API charges. */
export function tierRows(): Array<{ range: string; unit: string }> {
  const ascending = [...CREDIT_TIERS].reverse();
  return ascending.map((tier, i) => {
    const next = ascending[i + 1];
    const range = next ? `${tier.from.toLocaleString('en-AU')} – ${(next.from - 1).toLocaleString('en-AU')}` : `${tier.from.toLocaleString('en-AU')} or more`;
    return { range, unit: `${(tier.tenthsOfCent / 10).toFixed(1)}¢` };
  });
}
