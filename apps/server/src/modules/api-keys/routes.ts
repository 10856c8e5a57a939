// The Developers page's key calls (decision "API keys"); the keys themselves authorise the public API (http/route.ts).
import { apiKeyCreate, apiKeyList, apiKeyRevoke } from '@reelsmith/contract';
import { defineModule } from '../../http/module.js';
import { createApiKey, listApiKeys, revokeApiKey } from './keys.js';

export const apiKeysModule = defineModule((_api, { route, ctx }) => {
  route(apiKeyCreate, ({ user, body }) => createApiKey(ctx.db, user.userId, body.name, body.expiresInDays));
  route(apiKeyList, async ({ user }) => ({ list: await listApiKeys(ctx.db, user.userId) }));
  route(apiKeyRevoke, ({ user, body }) => revokeApiKey(ctx.db, user.userId, body.id));
});
