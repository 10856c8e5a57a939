import type Stripe from 'stripe';
import type { Db } from './db/client.js';
import type { SessionStore } from './modules/auth/sessions.js';
import type { ImportSlots } from './modules/files/importSlots.js';
import type { Storage } from './modules/files/storage/storage.js';
import type { AnyTaskDefinition } from './modules/tasks/definition.js';
import type { Parts } from './parts.js';
import type { GenerationProviders, ScriptWriter, Voice } from './providers/provider.js';
import type { Settings } from './settings.js';

/**
 * What the modules share: settings, the database, the session store, the file storage and the providers of this
 * process. Built in one place, composition.ts.
 */
export interface AppContext {
  settings: Settings;
  db: Db;
  sessions: SessionStore;
  storage: Storage;
  /** How many URL imports run at once in this process, per user and in all (decision "Import limits"). */
  importSlots: ImportSlots;
  /** The bearer token of the admin RPC, written to DATA_DIR/admin.json for the CLI. */
  adminToken: string;
  /** The parts of this machine the tasks need, each checked once (decision "Start-up checks"). */
  parts: Parts;
  /** The kinds of task this server accepts and its workers run (composition.ts; tests add their own). */
  tasks: readonly AnyTaskDefinition[];
  /** Who does each generation (providers/registry.ts; tests may put in their own). */
  providers: GenerationProviders;
  /** Who writes a link video's scripts: the local writer or an LLM. */
  scriptWriter: ScriptWriter;
  /** Who reads them: the local voices or a speech API. */
  voice: Voice;
  /** Stripe, where the operator sells credits (decision "Buying credits"); undefined: buying is not offered. */
  stripe: Stripe | undefined;
}
