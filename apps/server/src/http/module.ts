// A server module is one Fastify plugin of one shape: `defineModule((api, { route, ctx, auth, signer }) => …)`.
// app.ts registers every module the same way under the API prefix, each in its own encapsulated context, with
// the router of the contract's calls (route.ts) already made for it; a module's routes outside the contract (the
// signed file links, sample pictures, the OpenID redirects) are declared on `api` beside them.
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../context.js';
import type { Auth } from '../modules/auth/routes.js';
import { createRouter, type Router } from './route.js';
import type { UrlSigner } from './signedUrl.js';

/** What app.ts gives every module. */
export interface ModuleOptions {
  ctx: AppContext;
  /** The session behind a request (the router's access checks use it too). */
  auth: Auth;
  /** Signs and checks the links that are their own authority (decision "Signed links"). */
  signer: UrlSigner;
}

export type ServerModule = FastifyPluginAsync<ModuleOptions>;

export function defineModule(
  register: (api: FastifyInstance, options: ModuleOptions & { route: Router }) => void | Promise<void>,
): ServerModule {
  return async (api, options) => {
    await register(api, { ...options, route: createRouter(api, options.auth) });
  };
}
