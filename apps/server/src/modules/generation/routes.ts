// The generation tools' calls beside their tasks: the history of each tool, the image and video models, the product demos,
// and the try-on presets with their pictures (our own illustrations, served without a session like any <img>).
import {
  avatarEngine,
  avatarScript,
  generationHistory,
  imageClothInfo,
  imageHumanInfo,
  imageModels,
  productDemo,
  videoModels,
} from '@reelsmith/contract';
import { AppError } from '../../errors.js';
import { localeOf } from '../../http/locale.js';
import { defineModule } from '../../http/module.js';
import { isSandbox } from '../../providers/provider.js';
import { apiBase } from '../../settings.js';
import { avatarScriptFrom } from './avatarScript.js';
import { generationHistory as readHistory } from './history.js';
import { listImageModels, listVideoModels } from './models.js';
import { CLOTH_TEMPLATES, HUMAN_MODELS, PRODUCT_DEMOS, type PresetKind, presetPicture } from './presets.js';

const PRESETS_PATH = '/generation/presets';
const PRESET_KINDS: readonly PresetKind[] = ['model', 'garment', 'demo'];

export const generationModule = defineModule((api, { route, ctx }) => {
  const pictureUrl = (kind: PresetKind, id: string) => `${apiBase(ctx.settings)}${PRESETS_PATH}/${kind}/${id}.png`;

  route(generationHistory, ({ user, body, req }) => readHistory(ctx, user.userId, body, localeOf(req.headers['accept-language'])));
  route(videoModels, ({ query }) => {
    if (query.mode) return listVideoModels(ctx, query.mode);
    const all = [...listVideoModels(ctx, 'text'), ...listVideoModels(ctx, 'image')];
    return all.filter((model, i) => all.findIndex((m) => m.modelId === model.modelId) === i);
  });
  route(imageModels, ({ query }) => listImageModels(ctx, query.mode));
  // The sandbox is named as such so the Avatar tool can say its videos are stand-ins (decision "The Avatar tool").
  route(avatarEngine, () => {
    const provider = ctx.providers.talkingAvatar;
    return { engine: provider ? (isSandbox(provider) ? ('sandbox' as const) : ('vendor' as const)) : null };
  });
  route(avatarScript, ({ user, body }) => avatarScriptFrom(ctx, user.userId, body));
  route(productDemo, ({ req }) => {
    const locale = localeOf(req.headers['accept-language']);
    return PRODUCT_DEMOS.map((d) => ({
      category: d.category,
      name: d.name[locale],
      prompt: d.prompt[locale],
      imageUrl: pictureUrl('demo', d.category),
    }));
  });
  route(imageHumanInfo, ({ req }) => {
    const locale = localeOf(req.headers['accept-language']);
    return HUMAN_MODELS.map((m) => ({
      modelId: m.modelId,
      name: m.name[locale],
      gender: m.gender,
      imageUrl: pictureUrl('model', m.modelId),
    }));
  });
  route(imageClothInfo, ({ req }) => {
    const locale = localeOf(req.headers['accept-language']);
    return CLOTH_TEMPLATES.map((t) => ({
      templateId: t.templateId,
      name: t.name[locale],
      garmentType: t.garmentType,
      imageUrl: pictureUrl('garment', t.templateId),
    }));
  });

  api.get<{ Params: { kind: string; file: string } }>(
    `${PRESETS_PATH}/:kind/:file`,
    { config: { skipClientChecks: true } },
    async (req, reply) => {
      const kind = req.params.kind as PresetKind;
      const id = req.params.file.replace(/\.png$/, '');
      const picture = PRESET_KINDS.includes(kind) && req.params.file.endsWith('.png') ? presetPicture(kind, id) : undefined;
      if (!picture) throw new AppError('notFound');
      return reply
        .type('image/png')
        .header('cache-control', 'public, max-age=86400')
        .send(await picture.render());
    },
  );
});
