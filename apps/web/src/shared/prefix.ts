const DEFAULT_PREFIX = 'reelsmith';

/**
 * The service's path prefix. The server rewrites `<meta name="api-prefix">` in index.html when it serves
 * the page, so one build works under any configured prefix.
 */
export function apiPrefix(): string {
  const content = document.querySelector<HTMLMetaElement>('meta[name="api-prefix"]')?.content.trim();
  return content || DEFAULT_PREFIX;
}

/** Where every API path of the contract lives: `/{prefix}/api`. */
export const apiBase = () => `/${apiPrefix()}/api`;
