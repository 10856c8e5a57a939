// The public API's document (decision "Public API"): open to anyone, since it says only what the calls accept.
// The calls themselves are the web app's, bound a second time under PUBLIC_API_BASE by http/route.ts.
import { PUBLIC_API_BASE, PUBLIC_API_DOCUMENT_PATH, publicApiDocument } from '@reelsmith/contract/public-api';
import { defineModule } from '../../http/module.js';
import { apiBase } from '../../settings.js';

export const publicApiModule = defineModule((api, { ctx }) => {
  const document = JSON.stringify(publicApiDocument(`${ctx.settings.publicUrl}${apiBase(ctx.settings)}${PUBLIC_API_BASE}`));
  api.get(PUBLIC_API_DOCUMENT_PATH, { config: { skipClientChecks: true } }, async (_req, reply) =>
    reply.type('application/json; charset=utf-8').header('cache-control', 'public, max-age=300').send(document),
  );
});
