// The log collection endpoint of spec "Error catalogue": the web app reports client errors and failed calls and
// tasks here; each entry is logged as structured JSON with the request id and the user id (decision "Client logs").
import { CLIENT_LOG_BODY_MAX, logCollect } from '@reelsmith/contract';
import { defineModule } from '../../http/module.js';
import { scrub } from './scrub.js';

export const logsModule = defineModule((_api, { route, auth, ctx }) => {
  // Per address: a broken page reports in bursts, and the log must not be anyone's to flood.
  const perMinute = ctx.settings.clientLogRateLimit;
  route(
    logCollect,
    async ({ req, body }) => {
      const user = await auth.currentUser(req);
      for (const entry of body.entries) {
        req.log.warn(
          { clientLog: { ...entry, message: scrub(entry.message), route: scrub(entry.route), userId: user?.userId ?? null } },
          'client log',
        );
      }
      return true as const;
    },
    { bodyLimit: CLIENT_LOG_BODY_MAX, rateLimit: { max: perMinute, timeWindow: 60_000 } },
  );
});
