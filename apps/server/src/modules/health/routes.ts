import { health } from '@reelsmith/contract';
import { defineModule } from '../../http/module.js';
import { checkHealth } from './service.js';

export const healthModule = defineModule((_api, { route, ctx }) => {
  // Probed by monitors and start-up scripts, which send no client header.
  route(health, () => checkHealth(ctx), { skipClientChecks: true });
});
