// The hostile-input campaign (decision "Hostile suite from the contract"): every API call of the contract attacked by
// category, on PGlite and, when TEST_DATABASE_URL is set, PostgreSQL. Each attack must get a clear error and change
// nothing; the figures of each database are printed once its run ends.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appOn, Browser } from '../support/app.js';
import { testDatabases } from '../support/databases.js';
import { activeMember, fixtureServer } from '../support/files.js';
import { accessAttacks } from './access.js';
import { boundedWorkAttacks } from './boundedWork.js';
import { cancelRaceAttacks } from './cancelRaces.js';
import { controlCharacterAttacks } from './controlCharacters.js';
import { fairShareAttacks } from './fairShare.js';
import { hugeAttacks } from './huge.js';
import { identityAttacks } from './identity.js';
import { idorAttacks } from './idor.js';
import { malformedAttacks } from './malformed.js';
import { perUserLimitAttacks } from './perUserLimits.js';
import { rateLimitAttacks } from './rateLimits.js';
import { sessionAttacks } from './sessions.js';
import { signedLinkAttacks } from './signedLinks.js';
import { ssrfAttacks } from './ssrf.js';
import type { Arena } from './support/arena.js';
import { API_CALLS, labelOf } from './support/calls.js';
import { Campaign } from './support/campaign.js';
import { Figures } from './support/figures.js';
import { holdingsOf } from './support/holdings.js';
import { unknownFieldAttacks } from './unknownFields.js';
import { lyingUploadAttacks } from './uploads.js';
import { wrongTypeAttacks } from './wrongTypes.js';

/**
 * The contract's calls: 72 exported ones (7 of them batches', 4 the Avatar tool's, 4 buying credits') and submit, query
 * and cancel of its 13 task kinds.
 */
const CALL_COUNT = 116;

/** Limits high enough that thousands of attacks are refused for what they send, not for how many they are. */
const UNLIMITED = {
  AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
  ACTIVATE_RATE_LIMIT: '1000000',
  CLIENT_LOG_RATE_LIMIT: '1000000',
  TASKS_WAITING_PER_USER: '1000000',
};

describe.each(testDatabases())('hostile input on $name', (testDb) => {
  const figures = new Figures(`hostile (${testDb.name})`);
  const site = fixtureServer();
  const t = appOn(testDb, () => ({ ...UNLIMITED, OUTBOUND_ALLOW_HOSTS: site.host }));
  const arena = { t, site } as Partial<Arena> as Arena;

  beforeAll(async () => {
    arena.campaign = new Campaign(t, figures);
    const attacker = await activeMember(t, 'attacker');
    const victim = await activeMember(t, 'victim');
    arena.attacker = attacker.browser;
    arena.victim = victim.browser;
    arena.mine = await holdingsOf(t, attacker.browser, 'attacker');
    arena.theirs = await holdingsOf(t, victim.browser, 'victim');
    arena.inactive = new Browser(t.app, 'pt-BR');
    await arena.inactive.devLogin('inactive@example.com');
  });
  afterAll(() => {
    console.log(figures.table());
  });

  it('attacks every call of the contract, each served by the app', () => {
    expect(API_CALLS.map(labelOf)).toHaveLength(CALL_COUNT);
    expect(new Set(API_CALLS.map(labelOf)).size).toBe(CALL_COUNT);
    for (const { call } of API_CALLS) expect(t.app.hasRoute({ method: call.method, url: `/reelsmith/api${call.path}` })).toBe(true);
  });

  malformedAttacks(arena);
  wrongTypeAttacks(arena);
  controlCharacterAttacks(arena);
  hugeAttacks(arena);
  unknownFieldAttacks(arena);
  idorAttacks(arena);
  accessAttacks(arena);
  lyingUploadAttacks(arena);
  sessionAttacks(arena);
  rateLimitAttacks(arena);
  signedLinkAttacks(arena);
  boundedWorkAttacks(arena);
  perUserLimitAttacks(arena);
  cancelRaceAttacks(arena, testDb);
  fairShareAttacks(arena, testDb);
  ssrfAttacks(testDb, figures);
  identityAttacks(testDb, figures);
});
