import { referralInfo } from '@reelsmith/contract';
import { defineModule } from '../../http/module.js';
import { referralSummary } from './service.js';

export const referralsModule = defineModule((_api, { route, ctx: { db, settings } }) => {
  route(referralInfo, ({ user }) => referralSummary(db, user.userId, settings.publicUrl));
});
