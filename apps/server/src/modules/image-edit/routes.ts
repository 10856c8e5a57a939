// The image tools' lookups: the preset backgrounds of AI background (their pictures served without a session,
// like the editor's samples: an <img> sends no client header; they are the product's own, the same for all),
// and the clothing check of a picture the caller names.
import { createReadStream } from 'node:fs';
import { imageClothDesc, productBackgroundList } from '@reelsmith/contract';
import { backgroundPreset } from '@reelsmith/media';
import { AppError } from '../../errors.js';
import { localeOf } from '../../http/locale.js';
import { defineModule } from '../../http/module.js';
import { apiBase } from '../../settings.js';
import { presetBackgroundFile, presetBackgrounds } from './backgrounds.js';
import { clothCheck } from './cloth.js';

const IMAGES_PATH = '/mis/product-background/image';

export const imageEditModule = defineModule((api, { route, ctx }) => {
  route(productBackgroundList, async ({ user, query, req }) =>
    (await presetBackgrounds(ctx, user.userId, localeOf(req.headers['accept-language']), query.category)).map((b) => ({
      ...b,
      imageUrl: `${apiBase(ctx.settings)}${IMAGES_PATH}/${b.backgroundId}.jpg`,
    })),
  );

  api.get<{ Params: { file: string } }>(`${IMAGES_PATH}/:file`, { config: { skipClientChecks: true } }, async (req, reply) => {
    const id = req.params.file.replace(/\.jpg$/, '');
    if (!req.params.file.endsWith('.jpg') || !backgroundPreset(id)) throw new AppError('notFound');
    const file = await presetBackgroundFile(ctx, id);
    return reply.type('image/jpeg').header('cache-control', 'public, max-age=86400').send(createReadStream(file));
  });

  route(imageClothDesc, ({ user, query, req }) => clothCheck(ctx, user.userId, query.url, localeOf(req.headers['accept-language'])));
});
