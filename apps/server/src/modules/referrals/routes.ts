import { referralInfo } from '@reelsmith/contract';
import type { AppContext } from '../../context.js';
import type { Router } from '../../http/route.js';
import { referralSummary } from './service.js';

export function registerReferralRoutes(route: Router, { db, settings }: AppContext) {
  route(referralInfo, ({ user }) => referralSummary(db, user.userId, settings.publicUrl));
}
