// The preset backgrounds of AI background (GET /mis/product-background/list): the media package draws them on
// first use into DATA_DIR's cache; their names are the product's own words, in the caller's language.
import type { Locale } from '@reelsmith/contract';
import { BACKGROUNDS, backgroundFile } from '@reelsmith/media';
import type { AppContext } from '../../context.js';
import { AppError } from '../../errors.js';
import { cacheDirOf } from '../files/workDir.js';

const NAMES: Record<string, Record<Locale, string>> = {
  'studio-white': { en: 'White studio', zh: '白色影棚', pt: 'Estúdio branco' },
  'studio-grey': { en: 'Grey studio', zh: '灰色影棚', pt: 'Estúdio cinzento' },
  'studio-black': { en: 'Black studio', zh: '黑色影棚', pt: 'Estúdio preto' },
  'marble-white': { en: 'White marble', zh: '白色大理石', pt: 'Mármore branco' },
  'wood-oak': { en: 'Oak wood', zh: '橡木', pt: 'Madeira de carvalho' },
  'linen-beige': { en: 'Beige linen', zh: '米色亚麻', pt: 'Linho bege' },
  'pastel-pink': { en: 'Pastel pink room', zh: '粉彩粉色房间', pt: 'Sala rosa pastel' },
  'pastel-mint': { en: 'Pastel mint room', zh: '粉彩薄荷色房间', pt: 'Sala verde-menta pastel' },
  'pastel-lilac-podium': { en: 'Lilac podium', zh: '淡紫色展台', pt: 'Pódio lilás' },
  'outdoor-sky': { en: 'Blue sky and meadow', zh: '蓝天草地', pt: 'Céu azul e prado' },
  'outdoor-sunset': { en: 'Sunset', zh: '日落', pt: 'Pôr do sol' },
  'outdoor-beach': { en: 'Beach', zh: '海滩', pt: 'Praia' },
};

/** The preset's picture on this machine, drawn now the first time. */
export async function presetBackgroundFile(ctx: AppContext, backgroundId: string): Promise<string> {
  const file = await backgroundFile(backgroundId, cacheDirOf(ctx.settings.dataDir, 'backgrounds'));
  if (!file) throw new AppError('backgroundNotFound');
  return file;
}

export const presetBackgrounds = (locale: Locale, category?: string) =>
  BACKGROUNDS.filter((b) => !category || b.category === category).map((b) => ({
    backgroundId: b.backgroundId,
    category: b.category,
    name: NAMES[b.backgroundId]?.[locale] ?? b.backgroundId,
  }));
