// The preset backgrounds of AI background (GET /mis/product-background/list): the media package draws them on
// first use into DATA_DIR's cache; their names are the product's own words, in the caller's language.
import type { Locale } from '@reelsmith/contract';
import { BACKGROUNDS, backgroundFile, brandBackgroundIds } from '@reelsmith/media';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { brandKits } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { cacheDirOf } from '../files/workDir.js';

const NAMES: Record<string, Record<Locale, string>> = {
  'studio-white': { en: 'White paper sweep', zh: '白色无缝背景纸', pt: 'Fundo infinito branco' },
  'studio-grey': { en: 'Grey paper sweep', zh: '灰色无缝背景纸', pt: 'Fundo infinito cinza' },
  'studio-black': { en: 'Black sweep, spotlit', zh: '聚光黑色背景纸', pt: 'Fundo infinito preto com foco de luz' },
  'studio-cream': { en: 'Cream paper sweep', zh: '奶油色无缝背景纸', pt: 'Fundo infinito creme' },
  'podium-white': { en: 'White podium', zh: '白色圆形展台', pt: 'Pódio branco' },
  'podium-blush': { en: 'Blush podium', zh: '腮红粉圆形展台', pt: 'Pódio rosado' },
  'podium-sage': { en: 'Sage podium', zh: '鼠尾草绿圆形展台', pt: 'Pódio verde-sálvia' },
  'plinth-stone': { en: 'Stone plinth', zh: '石色方形展台', pt: 'Pedestal cor de pedra' },
  'plinth-black': { en: 'Black plinth', zh: '黑色方形展台', pt: 'Pedestal preto' },
  'wall-sunset': { en: 'Sunset wall on a tabletop', zh: '日落色墙面与台面', pt: 'Parede pôr do sol sobre mesa' },
  'wall-terracotta': { en: 'Terracotta wall on a tabletop', zh: '陶土色墙面与台面', pt: 'Parede terracota sobre mesa' },
  'wall-navy': { en: 'Navy wall on a tabletop', zh: '藏青色墙面与台面', pt: 'Parede azul-marinho sobre mesa' },
  'glossy-black': { en: 'Black glossy floor', zh: '黑色镜面地台', pt: 'Piso preto brilhante' },
  'glossy-white': { en: 'White glossy floor', zh: '白色镜面地台', pt: 'Piso branco brilhante' },
};

/** The brand sets' names, by kind (`brand-<kind>-…`). */
const BRAND_NAMES: Record<string, Record<Locale, string>> = {
  sweep: { en: 'Brand colour sweep', zh: '品牌色无缝背景', pt: 'Fundo infinito na cor da marca' },
  podium: { en: 'Brand colour podium', zh: '品牌色展台', pt: 'Pódio nas cores da marca' },
  wall: { en: 'Brand colour wall', zh: '品牌色墙面', pt: 'Parede nas cores da marca' },
};

/** A preset's name in the caller's language. */
export const backgroundName = (backgroundId: string, locale: Locale) =>
  NAMES[backgroundId]?.[locale] ?? BRAND_NAMES[backgroundId.split('-')[1] ?? '']?.[locale] ?? backgroundId;

/** The preset's picture on this machine, drawn now the first time. */
export async function presetBackgroundFile(ctx: AppContext, backgroundId: string): Promise<string> {
  const file = await backgroundFile(backgroundId, cacheDirOf(ctx.settings.dataDir, 'backgrounds'));
  if (!file) throw new AppError('backgroundNotFound');
  return file;
}

/**
 * The presets, the user's brand sets first when they have saved a brand kit (the same sets in its two colours;
 * the default kit's colours are nobody's brand).
 */
export async function presetBackgrounds(ctx: AppContext, userId: string, locale: Locale, category?: string) {
  const [kit] = await ctx.db
    .select({ primary: brandKits.primaryColor, secondary: brandKits.secondaryColor })
    .from(brandKits)
    .where(eq(brandKits.userId, userId));
  const brand = kit ? brandBackgroundIds(kit.primary, kit.secondary).map((id) => ({ backgroundId: id, category: 'brand' })) : [];
  return [...brand, ...BACKGROUNDS]
    .filter((b) => !category || b.category === category)
    .map((b) => ({ backgroundId: b.backgroundId, category: b.category, name: backgroundName(b.backgroundId, locale) }));
}
