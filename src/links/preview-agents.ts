/**
 * User agents of link-preview fetchers (messaging apps unfurling a link), crawlers and the URL scanners
 * carriers and security filters run over texts. Their hits are recorded apart and never count as
 * clicks. Headless browsers driven by people's tests are not listed: they are browsers.
 */
const PREVIEW_AGENT_RE =
  /facebookexternalhit|facebot|twitterbot|slackbot|slack-imgproxy|whatsapp|telegrambot|discordbot|linkedinbot|skypeuripreview|microsoftpreview|bingpreview|applebot|pinterest|redditbot|embedly|vkshare|viber|snapchat|google-pagerenderer|googleimageproxy|google-safety|googlebot|bingbot|yandex|baiduspider|duckduckbot|ia_archiver|preview|scanner|crawler|spider|urlscan|safebrowsing|proofpoint|mimecast|barracuda|\bbot\b|bot\//i;

/** A hit that is not a person: a HEAD request, no user agent at all, or a known fetcher or scanner. */
export function isPreviewHit(method: string, userAgent: string | undefined): boolean {
  if (method === 'HEAD') return true;
  if (!userAgent) return true;
  return PREVIEW_AGENT_RE.test(userAgent);
}
