import { createHash, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../errors.js';
import { ok } from '../../http/envelope.js';
import { defineModule } from '../../http/module.js';
import { parseInput } from '../../http/route.js';
import { AdminCommand } from './command.js';
import { runAdminCommand } from './commands.js';

export const ADMIN_RPC_PATH = '/admin/rpc';

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * The admin CLI's way in while the server runs (an embedded database admits one process). Only the token
 * from DATA_DIR/admin.json opens it; hashing both sides gives equal lengths for the constant-time compare.
 */
export const adminModule = defineModule((app, { ctx }) => {
  const expected = digest(ctx.adminToken);
  app.post(ADMIN_RPC_PATH, { config: { skipClientChecks: true } }, async (req) => {
    const given = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    if (!timingSafeEqual(digest(given), expected)) throw new AppError('unauthenticated');
    return ok({ lines: await runAdminCommand(ctx, parseInput(AdminCommand, req.body, req)) });
  });
});
