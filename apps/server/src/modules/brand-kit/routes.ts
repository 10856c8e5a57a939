import { brandKitGet, brandKitSave } from '@reelsmith/contract';
import { localeOf } from '../../http/locale.js';
import { defineModule } from '../../http/module.js';
import { readBrandKit, saveBrandKit } from './service.js';

export const brandKitModule = defineModule((_api, { route, ctx }) => {
  route(brandKitGet, ({ user, req }) => readBrandKit(ctx, user.userId, localeOf(req.headers['accept-language'])));
  route(brandKitSave, ({ user, body }) => saveBrandKit(ctx, user.userId, body));
});
