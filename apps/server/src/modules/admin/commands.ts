import { AppError } from '../../errors.js';
import { createInviteCodes } from '../invites/service.js';
import { listUsers, setStatus, type UserDeps } from '../users/service.js';
import type { AdminCommand } from './command.js';

/** Columns padded to their widest cell. */
function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]?.length ?? 0)));
  return [header, ...rows].map((cells) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd(),
  );
}

/** Runs a command and answers the lines it prints. `invites create` prints only the codes, one a line. */
export async function runAdminCommand(deps: UserDeps, command: AdminCommand): Promise<string[]> {
  switch (command.command) {
    case 'invites create':
      return createInviteCodes(deps.db, { count: command.count, maxUses: command.uses, expiresDays: command.expiresDays });
    case 'users list': {
      const users = await listUsers(deps.db);
      return table(
        ['EMAIL', 'USERNAME', 'STATUS', 'CREATED'],
        users.map((u) => [u.email, u.username, u.status, u.createdAt.toISOString()]),
      );
    }
    case 'users status': {
      const user = await setStatus(deps, command.email, command.status);
      if (!user) throw new AppError('validation', { detail: `no user with the e-mail ${command.email}` });
      return [`${user.email} is now ${user.status}`];
    }
  }
}
