import type { Db } from './db/client.js';
import type { SessionStore } from './modules/auth/sessions.js';
import type { Settings } from './settings.js';

/** What the modules share: settings, the database and the session store of this process. */
export interface AppContext {
  settings: Settings;
  db: Db;
  sessions: SessionStore;
  /** The bearer token of the admin RPC, written to DATA_DIR/admin.json for the CLI. */
  adminToken: string;
}
