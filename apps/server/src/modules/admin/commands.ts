import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../context.js';
import { AppError } from '../../errors.js';
import { offersOnSale, priceProblem, putOnSale, readPrice, retire } from '../billing/catalogue.js';
import { owedCredits, recentEvents } from '../billing/report.js';
import { createInviteCodes } from '../invites/service.js';
import { auditLedger } from '../points/audit.js';
import { grant } from '../points/ledger.js';
import { listPrices, setPrice } from '../points/prices.js';
import { readAccount } from '../points/queries.js';
import { addCataloguePresenter, listCatalogue, retirePresenter } from '../presenters/service.js';
import { setStatus } from '../users/block.js';
import { findUserByEmail, listUsers } from '../users/service.js';
import { cancelWorkOf } from './cancelWork.js';
import type { AdminCommand } from './command.js';

const DAY_MS = 86_400_000;

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
export async function runAdminCommand(deps: AppContext, command: AdminCommand): Promise<string[]> {
  switch (command.command) {
    case 'invites create':
      return createInviteCodes(deps.db, { count: command.count, maxUses: command.uses, expiresDays: command.expiresDays });
    case 'users list': {
      const users = await listUsers(deps.db);
      return table(
        ['EMAIL', 'USERNAME', 'STATUS', 'CREATED'],
        // A blocked user is INACTIVE to the app; the operator sees which INACTIVE users they blocked.
        users.map((u) => [u.email, u.username, u.blocked ? 'BLOCKED' : u.status, u.createdAt.toISOString()]),
      );
    }
    case 'users status': {
      const user = await setStatus(deps, command.email, command.status);
      if (!user) throw noSuchUser(command.email);
      if (!user.blockedAt) return [`${user.email} is now ${user.status}`];
      const cancelled = await cancelWorkOf(deps, user.id);
      return [`${user.email} is now INACTIVE: blocked, signed out everywhere, ${cancelledWork(cancelled)}`];
    }
    case 'tasks cancel': {
      const user = await findUserByEmail(deps.db, command.email);
      if (!user) throw noSuchUser(command.email);
      return [`${user.email}: ${cancelledWork(await cancelWorkOf(deps, user.id))}`];
    }
    case 'prices list': {
      const prices = await listPrices(deps.db);
      return table(
        ['SKU', 'PRICE', 'UPDATED'],
        prices.map((p) => [p.skuCode, String(p.price), p.updatedAt.toISOString()]),
      );
    }
    case 'prices set': {
      const row = await setPrice(deps.db, command.skuCode, command.price);
      return [`${row.skuCode} now costs ${row.price} credits`];
    }
    case 'credits grant': {
      const user = await findUserByEmail(deps.db, command.email);
      if (!user) throw noSuchUser(command.email);
      const now = new Date();
      await grant(deps.db, user.id, command.amount, command.type, {
        // Each run of the command is a grant of its own.
        key: `admin:${randomUUID()}`,
        expiresAt: command.expiresDays ? new Date(now.getTime() + command.expiresDays * DAY_MS) : undefined,
        now,
      });
      const a = await readAccount(deps.db, user.id);
      return [
        `Granted ${command.amount} ${command.type} credits to ${user.email}; available ${a.availablePoints} (total ${a.totalPoints}, used ${a.usedPoints}, expired ${a.expiredPoints})`,
      ];
    }
    case 'credits audit': {
      const problems = await auditLedger(deps.db);
      const owed = (await owedCredits(deps.db)).map(
        (o) =>
          `${o.email} owes ${o.owed} credits: spent before ${o.purchases === 1 ? 'a purchase was' : `${o.purchases} purchases were`} refunded`,
      );
      return [...(problems.length ? problems : ['The ledger adds up.']), ...owed];
    }
    case 'billing packs':
    case 'billing plans':
      return offersCommand(deps, command);
    case 'billing events': {
      const user = command.email ? await findUserByEmail(deps.db, command.email) : undefined;
      if (command.email && !user) throw noSuchUser(command.email);
      const events = await recentEvents(deps.db, user?.id);
      return table(
        ['RECEIVED', 'EVENT', 'TYPE', 'OUTCOME'],
        events.map((e) => [
          e.receivedAt.toISOString(),
          e.id,
          e.type,
          e.processedAt
            ? (e.outcome ?? '')
            : `not acted on yet: ${e.failures} failed attempt(s)${e.lastError ? `, last: ${e.lastError}` : ''}`,
        ]),
      );
    }
    case 'presenters add': {
      const { photo, voice, ...presenter } = command;
      const row = await addCataloguePresenter(deps, { ...presenter, voiceId: voice, photo });
      return [`Added ${row.name} to the catalogue as ${row.id}`];
    }
    case 'presenters list': {
      const rows = await listCatalogue(deps.db);
      return table(
        ['ID', 'NAME', 'GENDER', 'LANGUAGES', 'VOICE', 'STATUS'],
        rows.map((p) => [p.id, p.name, p.gender, p.languages.join(','), p.voiceId ?? '-', p.retiredAt ? 'retired' : 'offered']),
      );
    }
    case 'presenters retire': {
      const row = await retirePresenter(deps.db, command.presenterId);
      return [`${row.name} (${row.id}) is offered no more`];
    }
  }
}

/** Lists, adds or retires packs or plans; an added offer's Stripe price is checked when Stripe is set up. */
async function offersCommand(deps: AppContext, command: Extract<AdminCommand, { command: 'billing packs' | 'billing plans' }>) {
  const kind = command.command === 'billing packs' ? 'pack' : 'plan';
  const code = command.code as string;
  switch (command.action) {
    case 'list': {
      const offers = await offersOnSale(deps.db, kind);
      return table(
        ['CODE', 'CREDITS', 'STRIPE PRICE', ...(kind === 'pack' ? ['EXPIRES'] : [])],
        offers.map((o) => [
          o.code,
          kind === 'pack' ? String(o.credits) : `${o.credits} a month`,
          o.stripePriceId,
          ...(kind === 'pack' ? [o.expiresDays ? `after ${o.expiresDays} days` : 'never'] : []),
        ]),
      );
    }
    case 'add': {
      const stripePriceId = command.stripePrice as string;
      let checked = 'not checked: STRIPE_SECRET_KEY is not set';
      if (deps.stripe) {
        const problem = priceProblem(await readPrice(deps.stripe, stripePriceId), kind);
        if (problem) throw new AppError('validation', { detail: problem });
        checked = 'checked with Stripe';
      }
      const row = await putOnSale(deps.db, {
        kind,
        code,
        credits: command.credits as number,
        stripePriceId,
        expiresDays: command.expiresDays,
      });
      return [`${row.code} is on sale: ${row.credits} credits${kind === 'plan' ? ' a month' : ''} for ${row.stripePriceId} (${checked})`];
    }
    case 'retire': {
      const row = await retire(deps.db, kind, code);
      return [`${row.code} is on sale no more; what was bought keeps its credits`];
    }
  }
}

const cancelledWork = ({ tasks, batches }: { tasks: number; batches: number }) =>
  `${tasks} unfinished task${tasks === 1 ? '' : 's'} cancelled and refunded${batches ? `, ${batches} running batch${batches === 1 ? '' : 'es'} cancelled` : ''}`;

const noSuchUser = (email: string) => new AppError('validation', { detail: `no user with the e-mail ${email}` });
