import { avatarPresenterRemove, avatarPresenterSave, avatarPresenters } from '@reelsmith/contract';
import { defineModule } from '../../http/module.js';
import { listPresenters, removePresenter, savePresenter } from './service.js';

export const presentersModule = defineModule((_api, { route, ctx }) => {
  route(avatarPresenters, ({ user }) => listPresenters(ctx, user.userId));
  route(avatarPresenterSave, ({ user, body }) => savePresenter(ctx, user.userId, body));
  route(avatarPresenterRemove, ({ user, body }) => removePresenter(ctx, user.userId, body.presenterId));
});
