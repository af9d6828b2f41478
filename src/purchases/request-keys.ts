/** Request keys of purchases made without an API key (purchases.request_key): what made them, then that request's own key. */
export const PAGE_REQUEST_PREFIX = 'page:';
