/**
 * The request headers of an outbound fetch. Shops often answer bots with a captcha or an empty shell, so
 * the fetch presents itself as the desktop Chrome most visitors use; any current major version will do.
 */
export const BROWSER_USER_AGENT =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36';

/** What Chrome sends when it navigates to a page. */
export const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8';

export function browserHeaders(accept = BROWSER_ACCEPT): Record<string, string> {
  return {
    'User-Agent': BROWSER_USER_AGENT,
    Accept: accept,
    'Accept-Language': 'en-US,en;q=0.9',
    // Only the encodings body.ts decodes; deflate is left out because servers disagree on its framing.
    'Accept-Encoding': 'gzip, br',
  };
}
