import { health } from '@reelsmith/contract';
import type { AppContext } from '../../context.js';
import type { Router } from '../../http/route.js';
import { checkHealth } from './service.js';

export function registerHealthRoutes(route: Router, ctx: AppContext) {
  // Probed by monitors and start-up scripts, which send no client header.
  route(health, () => checkHealth(ctx), { skipClientChecks: true });
}
