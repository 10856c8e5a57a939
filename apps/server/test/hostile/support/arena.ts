// The place the attacks run: an app on a fresh database with its campaign, the attacking user and, for the
// attacks that need them, the other users and what they own. Filled in by the suite's hooks before any test.
import type { Browser } from '../../support/app.js';
import type { TestDb } from '../../support/databases.js';
import type { fixtureServer } from '../../support/files.js';
import type { ApiCall } from './calls.js';
import type { Campaign, TestApp } from './campaign.js';
import type { Holdings } from './holdings.js';
import { sampleOf } from './schema.js';

export interface Arena {
  t: TestApp & { database: TestDb };
  campaign: Campaign;
  /** An active member who attacks. */
  attacker: Browser;
  mine: Holdings;
  /** Another active member, whose data the attacker goes after. */
  victim: Browser;
  theirs: Holdings;
  /** A signed-in member who has not activated the account. */
  inactive: Browser;
  /** A public web site (allowed for outbound fetches) whose pages the attacks set. */
  site: ReturnType<typeof fixtureServer>;
}

/** A body the call's schema accepts, every optional field filled (so every field can be attacked). */
export const bodySample = (api: ApiCall) =>
  api.call.body ? (sampleOf(api.call.body, { optionals: true }) as Record<string, unknown>) : {};

/** A query the call's schema accepts, every optional field filled; values are strings as on the wire. */
export const querySample = (api: ApiCall) =>
  api.call.query ? (sampleOf(api.call.query, { optionals: true }) as Record<string, string>) : {};
