/** Request keys of purchases made without an API key (purchases.request_key): what made them, then that request's own key. */
export const PAGE_REQUEST_PREFIX = 'page:';
/** `auto-recharge:<balance crossing id>`: one purchase per crossing, however many workers handle it. */
export const AUTO_RECHARGE_PREFIX = 'auto-recharge:';

/** How a tax invoice names a purchase made without an API key; null for one made with a key. */
export function boughtBy(p: { requestKey: string | null; apiUsername: string }): string | null {
  if (p.requestKey?.startsWith(PAGE_REQUEST_PREFIX)) return `Bought on the Billing page by ${p.apiUsername}`;
  if (p.requestKey?.startsWith(AUTO_RECHARGE_PREFIX)) return 'Bought by auto-recharge (the balance fell below its threshold)';
  return null;
}
