import { DEFAULT_LOCALE, LOCALES, type Locale } from '@reelsmith/contract';

/**
 * The best of our locales for an Accept-Language header: tags by quality, matched on the primary
 * subtag (zh-CN, zh-TW → zh; pt-BR, pt-PT → pt); English when nothing matches.
 */
export function localeOf(acceptLanguage: string | undefined): Locale {
  if (!acceptLanguage) return DEFAULT_LOCALE;
  const ranked = acceptLanguage
    .split(',')
    .map((part, order) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { primary: tag.split('-')[0]?.toLowerCase() ?? '', q: q ? Number(q.slice(2)) : 1, order };
    })
    .filter((t) => t.q > 0)
    .sort((a, b) => b.q - a.q || a.order - b.order);
  for (const { primary } of ranked) {
    const found = LOCALES.find((l) => l === primary);
    if (found) return found;
  }
  return DEFAULT_LOCALE;
}
