import { usersActivate, usersLogout, usersMe } from '@reelsmith/contract';
import { defineModule } from '../../http/module.js';
import { activate } from './service.js';

const ACTIVATE_WINDOW_MS = 15 * 60_000;

export const usersModule = defineModule((_api, { route, ctx, auth }) => {
  route(usersMe, ({ user }) => user);

  route(usersActivate, ({ query, user }) => activate(ctx, user, query.inviteCode), {
    // Per user rather than per IP: guessing codes is what this limits, and users behind one NAT are many.
    rateLimit: { max: ctx.settings.activateRateLimit, timeWindow: ACTIVATE_WINDOW_MS, keyGenerator: (req) => req.user?.userId ?? req.ip },
  });

  route(usersLogout, async ({ req, reply }) => {
    await auth.endSession(req, reply);
    return true;
  });
});
