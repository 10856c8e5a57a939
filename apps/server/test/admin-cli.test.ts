import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { drawnPortrait } from '@reelsmith/media/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase, pgliteDirOf } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { users } from '../src/db/schema.js';
import { type TestDb, testDatabases } from './support/databases.js';
import { START_COMMAND } from './support/serverProcess.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const TSX = join(ROOT, 'node_modules/.bin/tsx');
const CODE = /^[A-Z2-9]{10}$/;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The CLI as the operator runs it: its own process, from the repo root. */
function cli(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((done) => {
    execFile(TSX, ['apps/server/src/cli/admin.ts', ...args], { cwd: ROOT, env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

const lines = (run: Run) => run.stdout.split('\n').filter(Boolean);

function freePort(): Promise<number> {
  return new Promise((done) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => done(port));
    });
  });
}

/** The user the credits commands are tried on. */
const BUYER = 'buyer@example.com';
const addBuyer = (db: Db) => db.insert(users).values({ id: 'buyer', email: BUYER, username: 'buyer' });

/** What every way of reaching the database must do: make codes, and fail on stderr for an unknown user. */
function commonChecks(env: () => Record<string, string>) {
  it('invites create prints each new code on its own line and nothing else; errors go to stderr', async () => {
    const run = await cli(['invites', 'create', '--count', '3', '--uses', '2', '--expires-days', '7'], env());
    expect(run.code).toBe(0);
    expect(lines(run)).toHaveLength(3);
    for (const line of lines(run)) expect(line).toMatch(CODE);
    const unknown = await cli(['users', 'status', '--email', 'ghost@example.com', 'ACTIVE'], env());
    expect(unknown).toMatchObject({ code: 1, stdout: '' });
    expect(unknown.stderr).toContain('no user with the e-mail ghost@example.com');
  });
}

/**
 * The prices and credits commands, tried where operators run them: through a running server and straight on
 * PostgreSQL (every command travels the same way as those above, so the other paths add nothing).
 */
function creditsChecks(env: () => Record<string, string>) {
  it("prices set changes a price that prices list then shows, among all 25 (the spec's 19, the local image to video's 4, the Avatar tool's, product in hand's)", async () => {
    expect(await cli(['prices', 'set', 'imageBg', '3'], env())).toMatchObject({ code: 0, stdout: 'imageBg now costs 3 credits\n' });
    const list = lines(await cli(['prices', 'list'], env()));
    expect(list[0]).toMatch(/^SKU\s+PRICE\s+UPDATED$/);
    expect(list).toHaveLength(26);
    expect(list[1]).toMatch(/^imageGen\s+4\s+\d{4}-/);
    expect(list.some((l) => /^productHolding\s+4\s/.test(l))).toBe(true);
    expect(list.some((l) => /^imageBg\s+3\s/.test(l))).toBe(true);
    expect(list.some((l) => /^img2Video_pro_10s\s+60\s/.test(l))).toBe(true);
  });

  it('credits grant gives a user credits and prints the balance; credits audit finds the ledger in order', async () => {
    const [run, ghost] = await Promise.all([
      cli(['credits', 'grant', '--email', BUYER, '--amount', '50', '--type', 'PROMOTION', '--expires-days', '10'], env()),
      cli(['credits', 'grant', '--email', 'ghost@example.com', '--amount', '5', '--type', 'RECHARGE'], env()),
    ]);
    expect(run).toMatchObject({
      code: 0,
      stderr: '',
      stdout: 'Granted 50 PROMOTION credits to buyer@example.com; available 50 (total 50, used 0, expired 0)\n',
    });
    expect(ghost).toMatchObject({ code: 1, stderr: expect.stringContaining('no user with the e-mail ghost@example.com') });
    expect(await cli(['credits', 'audit'], env())).toMatchObject({ code: 0, stdout: 'The ledger adds up.\n' });
  });

  it('tasks cancel runs with the server’s own task kinds, and names the user it cannot find', async () => {
    expect(await cli(['tasks', 'cancel', '--email', BUYER], env())).toMatchObject({
      code: 0,
      stderr: '',
      stdout: 'buyer@example.com: 0 unfinished tasks cancelled and refunded\n',
    });
    expect(await cli(['tasks', 'cancel', '--email', 'ghost@example.com'], env())).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('no user with the e-mail ghost@example.com'),
    });
  });
}

/** The catalogue commands, which carry a file's path and a list the CLI parses before a running server parses it again. */
function presentersChecks(env: () => Record<string, string>, dir: string) {
  it('presenters add looks at the photo and stores it in the catalogue, which presenters list shows', async () => {
    const photo = join(dir, 'ana.jpg');
    writeFileSync(photo, await drawnPortrait());
    const languages = await cli(
      ['presenters', 'add', '--name', 'Ana', '--gender', 'female', '--languages', 'pt,fr', '--photo', photo],
      env(),
    );
    expect(languages).toMatchObject({ code: 1, stderr: expect.stringContaining('languages') });
    // A path from where the operator stands: the command reads it wherever it runs.
    const added = await cli(
      [
        'presenters',
        'add',
        '--name',
        'Ana',
        '--gender',
        'female',
        '--languages',
        'pt, en',
        '--voice',
        'pt-ana',
        '--photo',
        relative(ROOT, photo),
      ],
      env(),
    );
    expect(added).toMatchObject({ code: 0, stderr: '' });
    const id = /as (\S+)\n$/.exec(added.stdout)?.[1];
    const list = lines(await cli(['presenters', 'list'], env()));
    expect(list[0]).toMatch(/^ID\s+NAME\s+GENDER\s+LANGUAGES\s+VOICE\s+STATUS$/);
    expect(list.find((line) => line.startsWith(`${id} `))).toMatch(new RegExp(`^${id}\\s+Ana\\s+female\\s+pt,en\\s+pt-ana\\s+offered$`));
  });
}

describe('admin CLI on an embedded database', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'reelsmith-cli-'));
  const env = () => ({ DATA_DIR: dataDir, LOG_LEVEL: 'warn' });

  beforeAll(async () => {
    const database = await openDatabase({ pgliteDir: pgliteDirOf(dataDir) });
    await migrate(database);
    await addBuyer(database.db);
    await database.close();
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('prints the usage for missing or bad arguments, before touching any database', async () => {
    const runs = await Promise.all(
      [
        [],
        ['users', 'status', '--email', 'ghost@example.com', 'ADMIN'],
        ['invites', 'create', '--count', '0'],
        ['users', 'list', '--count', '2'],
        ['prices', 'set', 'noSuchSku', '5'],
        ['prices', 'set', 'imageGen', '-1'],
        ['prices', 'set', 'imageGen', '1.5'],
        ['credits', 'grant', '--email', BUYER, '--amount', '5', '--type', 'SIGNUP'],
        ['credits', 'grant', '--email', BUYER, '--amount', '0', '--type', 'PROMOTION'],
      ].map((args) => cli(args, { DATA_DIR: join(dataDir, 'nowhere') })),
    );
    for (const run of runs) expect(run).toMatchObject({ code: 1, stdout: '', stderr: expect.stringContaining('Usage:') });
    expect(runs[1]?.stderr).toContain('status');
    expect(runs[2]?.stderr).toContain('count');
    expect(runs[4]?.stderr).toContain('skuCode');
    expect(runs[5]?.stderr).toContain('price');
    expect(runs[6]?.stderr).toContain('price');
    expect(runs[7]?.stderr).toContain('type');
    expect(runs[8]?.stderr).toContain('amount');
  });

  it('refuses a data dir without a database instead of creating one', async () => {
    const run = await cli(['users', 'list'], { DATA_DIR: join(dataDir, 'typo') });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('No database in');
    expect(existsSync(join(dataDir, 'typo'))).toBe(false);
  });

  describe('with no server running: opens the database itself', () => {
    commonChecks(env);

    presentersChecks(env, dataDir);
  });

  describe('with a stale admin.json from a server that died', () => {
    beforeAll(async () => {
      writeFileSync(join(dataDir, 'admin.json'), JSON.stringify({ url: `http://127.0.0.1:${await freePort()}/x`, token: 't' }));
    });
    commonChecks(env);
  });

  describe('while the server runs: goes through its admin RPC', () => {
    let server: ChildProcess;
    let base: string;
    let output = '';

    beforeAll(async () => {
      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      // Node with tsx's loader, not the tsx CLI: its wrapper relays SIGTERM and may exit 143 itself before the
      // server has said it handles the signal (seen on a loaded machine); the server must get the signal itself.
      server = spawn(START_COMMAND[0] as string, START_COMMAND.slice(1), {
        cwd: ROOT,
        env: { ...process.env, ...env(), PORT: String(port), PUBLIC_URL: base },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      server.stdout?.on('data', (d) => {
        output += d;
      });
      server.stderr?.on('data', (d) => {
        output += d;
      });
      // The invitation code is the last line of the start-up: its own write, which may come a moment after the address.
      for (let i = 0; i < 200 && !/Invitation code: \S+\n/.test(output); i++) await new Promise((r) => setTimeout(r, 100));
    });
    afterAll(() => {
      if (server.exitCode === null) server.kill('SIGKILL');
    });

    it('started, printed its address and wrote a private admin.json', () => {
      expect(output).toContain(`Reelsmith is running at ${base}`);
      // What the free, marked stand-ins do here is the operator's to know (decision "Stand-ins are free").
      expect(output).toContain(
        'Sandbox stand-ins (free, marked SANDBOX) for: textToImage, imageToImage, textToVideo, virtualTryOn, talkingAvatar, productHolding.',
      );
      // So is the way to natural voices: the editor only tells users the built-in ones sound synthetic.
      expect(output).toContain(
        'Voices: the built-in offline voices (eSpeak NG). Set TTS_BASE_URL or TTS_PROVIDER for natural voices (README, Voices).',
      );
      // The database already had codes, so none was created, and a usable one is shown.
      expect(output).toMatch(/Invitation code: [A-Z2-9]{10}/);
      const file = join(dataDir, 'admin.json');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ url: `${base}/reelsmith/api/admin/rpc`, token: expect.any(String) });
    });

    commonChecks(env);
    creditsChecks(env);
    presentersChecks(env, dataDir);

    it('sets a status that signed-in browsers see at once, and lists users', async () => {
      const headers = { client: 'WEB', origin: base, 'content-type': 'application/json' };
      const login = await fetch(`${base}/reelsmith/api/auth/dev-login`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ email: 'ops@example.com', username: 'Ops' }),
      });
      const cookie = login.headers.getSetCookie()[0]?.split(';')[0] ?? '';
      const me = async () => {
        const res = await fetch(`${base}/reelsmith/api/users/me`, { headers: { client: 'WEB', cookie } });
        return ((await res.json()) as { data: unknown }).data;
      };
      expect(await me()).toMatchObject({ status: 'INACTIVE' });
      const set = await cli(['users', 'status', '--email', 'ops@example.com', 'ACTIVE'], env());
      expect(set).toMatchObject({ code: 0, stdout: 'ops@example.com is now ACTIVE\n' });
      expect(await me()).toMatchObject({ status: 'ACTIVE' });
      const list = lines(await cli(['users', 'list'], env()));
      expect(list[0]).toMatch(/^EMAIL\s+USERNAME\s+STATUS\s+CREATED$/);
      expect(list.some((l) => /^ops@example\.com\s+Ops\s+ACTIVE\s+\d{4}-/.test(l))).toBe(true);
    });

    it('refuses an RPC call without the token', async () => {
      const res = await fetch(`${base}/reelsmith/api/admin/rpc`, {
        method: 'POST',
        headers: { authorization: 'Bearer wrong', 'content-type': 'application/json' },
        body: JSON.stringify({ command: 'users list' }),
      });
      expect(res.status).toBe(401);
      expect(((await res.json()) as { code: number }).code).toBe(401);
    });

    it('removes admin.json when stopped', async () => {
      const exited = new Promise((r) => server.once('exit', r));
      server.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(existsSync(join(dataDir, 'admin.json'))).toBe(false);
    });
  });
});

describe.each(testDatabases().filter((d) => d.name === 'postgres'))('admin CLI on PostgreSQL ($name)', (testDb) => {
  let database: TestDb;
  beforeAll(async () => {
    database = await testDb.open();
    await addBuyer(database.db);
  });
  afterAll(() => database.close());

  // No data dir at all: with DATABASE_URL the CLI needs none.
  const env = () => ({ DATABASE_URL: database.url ?? '', DATA_DIR: join(tmpdir(), 'reelsmith-cli-pg-unused') });
  commonChecks(env);
  creditsChecks(env);
});
