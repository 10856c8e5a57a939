// GET /image/getClothDesc?url=: the clothing upload rules (spec "Validation rules") judged on a picture the caller names: one of
// their own storage keys, a link the service gave them to one (its `key`), or a web address fetched through the
// SSRF-safe fetcher. The answer is the check and a short description in the caller's language.
import { createWriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { CLOTHING_MAX_BYTES, type Locale } from '@reelsmith/contract';
import { checkGarment, type GarmentCheck } from '@reelsmith/media';
import type { AppContext } from '../../context.js';
import { AppError } from '../../errors.js';
import { download } from '../files/importUrl.js';
import { isUsersKey } from '../files/storage/keys.js';
import { ObjectMissingError } from '../files/storage/storage.js';
import { withWorkDir } from '../files/workDir.js';

type Reason = NonNullable<GarmentCheck['reason']>;
type Described = GarmentCheck['garmentType'] | Reason;

/** The spec's detection messages ("Validation rules"), and what an accepted picture holds. */
const DESCRIPTIONS: Record<NonNullable<Described>, Record<Locale, string>> = {
  top: { en: 'One top on a white background.', zh: '白色背景上的一件上衣。', pt: 'Uma peça de cima em fundo branco.' },
  bottom: { en: 'One bottom on a white background.', zh: '白色背景上的一件下装。', pt: 'Uma peça de baixo em fundo branco.' },
  onePiece: { en: 'One dress on a white background.', zh: '白色背景上的一件连衣裙。', pt: 'Um vestido em fundo branco.' },
  noCloth: { en: 'No cloth detected', zh: '未检测到服装', pt: 'Nenhuma peça de roupa detectada' },
  multipleClothes: { en: 'Multiple clothes detected', zh: '检测到多件服装', pt: 'Várias peças de roupa detectadas' },
  onlyOneDress: { en: 'Only one dress can be uploaded', zh: '只能上传一件连衣裙', pt: 'Só é possível enviar um vestido' },
  multipleSimilarClothes: {
    en: 'Multiple similar clothes detected',
    zh: '检测到多件相似服装',
    pt: 'Várias peças de roupa semelhantes detectadas',
  },
  typeNotSupported: { en: 'Clothing type not supported', zh: '不支持该服装类型', pt: 'Tipo de roupa não suportado' },
  // Not one of the spec's messages: it says what picture works (decision "Worn garments").
  worn: {
    en: 'A person is wearing this garment. Please use a picture of the garment alone on a flat white background.',
    zh: '检测到服装穿在人身上。请使用纯白背景上单独的服装图片。',
    pt: 'A peça está sendo usada por uma pessoa. Use uma imagem só da peça, em um fundo branco liso.',
  },
  background: {
    en: 'Please use a picture of the garment on a flat white background.',
    zh: '请使用纯白背景上的服装图片。',
    pt: 'Use uma imagem da peça em um fundo branco liso.',
  },
  size: {
    en: 'The picture must be up to 10 MB, with a shorter side of at least 512 px and a longer side of at most 4096 px.',
    zh: '图片不得超过 10 MB，短边至少 512 像素，长边不超过 4096 像素。',
    pt: 'A imagem deve ter até 10 MB, o lado menor com pelo menos 512 px e o maior com no máximo 4096 px.',
  },
  format: {
    en: 'Please upload a JPG, JPEG or PNG picture.',
    zh: '请上传 JPG、JPEG 或 PNG 图片。',
    pt: 'Envie uma imagem JPG, JPEG ou PNG.',
  },
};

/**
 * The storage key `url` names: a key itself, or the `key` of one of the service's own file links, absolute or
 * relative as the web app holds them (`/{prefix}/api/file/object?key=…`: taken for a key, it answered "Not found.").
 */
function keyOf(url: string): string | undefined {
  const link = /^https?:\/\//i.test(url) || url.startsWith('/');
  if (!link) return url;
  try {
    return new URL(url, 'http://link.invalid').searchParams.get('key') ?? undefined;
  } catch {
    return undefined;
  }
}

async function fetchInto(ctx: AppContext, userId: string, url: string, path: string): Promise<'tooLarge' | undefined> {
  const key = keyOf(url);
  if (key && isUsersKey(userId, key)) {
    try {
      await pipeline(await ctx.storage.read(key), createWriteStream(path));
      return undefined;
    } catch (error) {
      if (error instanceof ObjectMissingError) throw new AppError('notFound');
      throw error;
    }
  }
  if (!/^https?:\/\//i.test(url)) throw new AppError('notFound');
  try {
    // One byte past the limit is enough to know the picture is too large.
    await writeFile(path, await download(ctx.settings, url, CLOTHING_MAX_BYTES + 1));
    return undefined;
  } catch (error) {
    if (error instanceof AppError && error.key === 'fileTooLarge') return 'tooLarge';
    throw error;
  }
}

export function clothCheck(ctx: AppContext, userId: string, url: string, locale: Locale) {
  return withWorkDir(ctx.settings, async (dir) => {
    const path = join(dir, 'garment');
    const check: GarmentCheck =
      (await fetchInto(ctx, userId, url, path)) === 'tooLarge'
        ? { ok: false, reason: 'size', garmentType: null }
        : await checkGarment(path).catch((error: unknown) => {
            // A file sharp cannot read is not a picture of an accepted format.
            if (error instanceof Error && !(error as NodeJS.ErrnoException).code)
              return { ok: false, reason: 'format', garmentType: null } as GarmentCheck;
            throw error;
          });
    const described = (check.ok ? check.garmentType : check.reason) as NonNullable<Described>;
    return { ...check, description: DESCRIPTIONS[described][locale] };
  });
}
