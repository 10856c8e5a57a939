// The composition root: the one place the server's parts are chosen and put together. `main.ts` and the tests'
// `testApp` both build their AppContext here, so a test runs the same assembly as production with only the
// settings, the database and (for tests of the engine itself) the task kinds changed.
import type { AppContext } from './context.js';
import type { Db } from './db/client.js';
import { assetUrlImportTask } from './modules/assets/urlImport.js';
import { SessionStore } from './modules/auth/sessions.js';
import { stripeClient } from './modules/billing/stripe.js';
import { ImportSlots } from './modules/files/importSlots.js';
import { createStorage } from './modules/files/storage/index.js';
import { GENERATION_TASKS } from './modules/generation/tasks.js';
import { IMAGE_EDIT_TASKS } from './modules/image-edit/tasks.js';
import { linkAnalysisTask } from './modules/link-video/analysis/task.js';
import { exportVideoTask, linkVideoTask, scriptUpdateTask } from './modules/link-video/video/tasks.js';
import { productHoldingTask } from './modules/presenters/holding.js';
import type { AnyTaskDefinition } from './modules/tasks/definition.js';
import { Parts } from './parts.js';
import { generationProviders, scriptWriter, voice } from './providers/registry.js';
import type { Settings } from './settings.js';

/** Every kind of task this server runs: the definitions the routes, the queue and the worker are built from. */
export const TASK_DEFINITIONS: readonly AnyTaskDefinition[] = [
  assetUrlImportTask,
  linkAnalysisTask,
  linkVideoTask,
  scriptUpdateTask,
  exportVideoTask,
  ...GENERATION_TASKS,
  ...IMAGE_EDIT_TASKS,
  productHoldingTask,
];

export interface Assembly {
  settings: Settings;
  db: Db;
  /** The bearer token of the admin RPC. */
  adminToken: string;
  /** The task kinds; the product's by default. */
  tasks?: readonly AnyTaskDefinition[];
  /** The parts of this machine, when main.ts checked them already at start; checked as tasks need them otherwise. */
  parts?: Parts;
}

/** The context every module shares: sessions, metered storage and every provider, chosen from the settings. */
export function createContext({ settings, db, adminToken, tasks = TASK_DEFINITIONS, parts = new Parts(settings) }: Assembly): AppContext {
  return {
    settings,
    db,
    sessions: new SessionStore(db),
    storage: createStorage(settings, db),
    importSlots: new ImportSlots(settings.importsPerUser, settings.importsPerProcess),
    adminToken,
    parts,
    tasks,
    providers: generationProviders(settings),
    scriptWriter: scriptWriter(settings),
    voice: voice(settings),
    stripe: settings.stripe && stripeClient(settings.stripe),
  };
}
