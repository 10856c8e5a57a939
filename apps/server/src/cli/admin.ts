// The admin CLI: `npm run --silent admin -- <command>`. Output goes to stdout, errors to stderr with exit 1.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { errorMessage } from '@reelsmith/contract';
import { AppError } from '../errors.js';
import { AdminCommand } from '../modules/admin/command.js';
import { loadSettings, type Settings } from '../settings.js';
import { type AdminFile, adminFileOf } from './admin-file.js';

const USAGE = `Usage: npm run --silent admin -- <command>
  invites create [--count N] [--uses M] [--expires-days D]   new invitation codes, one a line
  users list                                                 every user: e-mail, username, ACTIVE|INACTIVE|BLOCKED, created
  users status --email E ACTIVE|INACTIVE                     INACTIVE blocks the user (signed out everywhere,
                                                             no code lifts it, their unfinished tasks and running
                                                             batches cancelled and refunded, no webhook sent);
                                                             ACTIVE lifts a block and activates
  tasks cancel --email E                                     cancel a user's unfinished tasks and running
                                                             batches, refunded
  prices list                                                the price of each SKU code, in credits
  prices set SKU AMOUNT                                      set a SKU's price (a whole number, 0 or more)
  credits grant --email E --amount N --type T [--expires-days D]
                                                             give a user credits and print the new balance;
                                                             T: PROMOTION|ADJUSTMENT|RECHARGE|SUBSCRIPTION_PLAN
  credits audit                                              check that every balance matches the ledger, and
                                                             list who owes credits for refunded purchases
  billing packs|plans [list]                                 what is on sale: code, credits, Stripe price
  billing packs|plans add CODE --credits N --stripe-price PRICE [--expires-days D]
                                                             sell a top-up pack (credits once; they never expire
                                                             unless D is given) or a plan (credits every paid
                                                             month, lasting that month) at a Stripe price
  billing packs|plans retire CODE                            stop selling it (plans already bought go on)
  billing events [--email E]                                 the latest Stripe events and what each did
  presenters add --name N --gender female|male --languages en,zh,pt [--voice VOICE_ID] --photo FILE
                                                             add a presenter to the Avatar tool's catalogue
                                                             (the photo must show one face looking at the camera)
  presenters list                                            the catalogue: id, name, gender, languages, voice, status
  presenters retire ID                                       offer a catalogue presenter no more`;

/** What the words after a command name are, per command. */
const POSITIONALS: Record<string, string[]> = {
  'users status': ['status'],
  'prices set': ['skuCode', 'price'],
  'presenters retire': ['presenterId'],
  'billing packs': ['action', 'code'],
  'billing plans': ['action', 'code'],
};
/** Fields given as numbers, whether as an option or a positional. */
const NUMBERS = new Set(['count', 'uses', 'expiresDays', 'amount', 'price', 'credits']);

class CliError extends Error {}

/** parseArgs, with its complaints (an unknown option, a negative number read as one) followed by the usage. */
function parseArgv(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        count: { type: 'string' },
        uses: { type: 'string' },
        'expires-days': { type: 'string' },
        email: { type: 'string' },
        amount: { type: 'string' },
        type: { type: 'string' },
        name: { type: 'string' },
        gender: { type: 'string' },
        languages: { type: 'string' },
        voice: { type: 'string' },
        photo: { type: 'string' },
        credits: { type: 'string' },
        'stripe-price': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new CliError(`${(error as Error).message}\n\n${USAGE}`);
  }
}

function parseCommand(argv: string[]): AdminCommand {
  const { values, positionals } = parseArgv(argv);
  if (values.help || positionals.length < 2) throw new CliError(USAGE);
  const command = positionals.slice(0, 2).join(' ');
  const { 'expires-days': expiresDays, 'stripe-price': stripePrice, help: _, photo, ...options } = values;
  const named = (POSITIONALS[command] ?? []).map((name, i) => [name, positionals[2 + i]]);
  // The photo is read by whichever process runs the command, the server's maybe, from another folder.
  const raw = Object.entries({ ...options, expiresDays, stripePrice, photo: photo && resolve(photo), ...Object.fromEntries(named) })
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => [k, NUMBERS.has(k) ? Number(v) : v]);
  const parsed = AdminCommand.safeParse({ command, ...Object.fromEntries(raw) });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message));
    throw new CliError(`${problems.join('; ')}\n\n${USAGE}`);
  }
  return parsed.data;
}

/**
 * Sends the command to the running server named in admin.json. Answers undefined when there is no such file
 * or nothing listens at its address any more (a server that was killed), so the caller opens the database.
 */
async function viaServer(dataDir: string, command: AdminCommand): Promise<string[] | undefined> {
  const file = adminFileOf(dataDir);
  if (!existsSync(file)) return undefined;
  const { url, token } = JSON.parse(readFileSync(file, 'utf8')) as AdminFile;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(command),
      signal: AbortSignal.timeout(60_000),
    });
  } catch (error) {
    if ((error as { cause?: { code?: string } }).cause?.code === 'ECONNREFUSED') return undefined;
    throw error;
  }
  const envelope = (await response.json()) as { code: number; message: string; data: { lines: string[] } | null };
  if (envelope.code !== 0 || !envelope.data) throw new CliError(envelope.message);
  return envelope.data.lines;
}

/**
 * Opens the database itself: PostgreSQL always, the embedded one only when no server holds it. Drivers and
 * services are loaded only here, which keeps the common case (talking to a running server) quick to start.
 */
async function directly(settings: Settings, command: AdminCommand): Promise<string[]> {
  const { openDatabase, pgliteDirOf } = await import('../db/client.js');
  const { migrate } = await import('../db/migrate.js');
  const { runAdminCommand } = await import('../modules/admin/commands.js');
  const { createContext } = await import('../composition.js');
  const pgliteDir = pgliteDirOf(settings.dataDir);
  if (!settings.databaseUrl && !existsSync(pgliteDir)) {
    throw new CliError(`No database in ${pgliteDir}. Start the server once (npm start), or set DATA_DIR or DATABASE_URL.`);
  }
  const database = await openDatabase({ databaseUrl: settings.databaseUrl, pgliteDir });
  try {
    await migrate(database);
    // The server's own assembly, so a command here does what it does through a running server (a cancel runs the
    // task kinds' clean-up); no admin RPC is served from this process.
    return await runAdminCommand(createContext({ settings, db: database.db, adminToken: '' }), command);
  } finally {
    await database.close();
  }
}

async function main() {
  const command = parseCommand(process.argv.slice(2));
  const settings = loadSettings();
  const lines = (!settings.databaseUrl && (await viaServer(settings.dataDir, command))) || (await directly(settings, command));
  if (lines.length) process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((error: unknown) => {
  const message =
    error instanceof AppError ? errorMessage(error.key, 'en', error.params) : error instanceof Error ? error.message : String(error);
  process.stderr.write(`${message}\n`);
  process.exit(1);
});
