import {
  assetDelete,
  assetList,
  assetRename,
  assetStatistics,
  assetUploadWithUrl,
  assetUrls,
  assetUrlTaskQuery,
  assetUrlTaskSubmit,
  fileUrlTransfer,
} from './assets.js';
import { batchCancel, batchCreate, batchDownloads, batchGet, batchList, batchQuote, batchRetry } from './batches.js';
import type { Call } from './call.js';
import { TaskKind } from './enums.js';
import { generationHistory, imageModels, productBackgroundList, videoModels } from './generation.js';
import { linkVideoCaptions, linkVideoMusic, linkVideoTemplates, linkVideoVoices } from './linkVideo.js';
import { pointsAccount, pointsList, pointsSkuPrice } from './points.js';
import {
  projectCreate,
  projectDelete,
  projectDraftUrl,
  projectGetById,
  projectGetByIds,
  projectList,
  projectNameAfterProduct,
  projectRename,
  projectSaveDraft,
  projectTasks,
} from './projects.js';
import { taskCancel, taskQuery, taskSubmit } from './tasks.js';
import { usersMe } from './users.js';

/**
 * The public API (decision "Public API"): the web app's own calls, at `/{prefix}/api` + PUBLIC_API_BASE + the call's
 * path, authorised by an API key (`Authorization: Bearer rsk_…`) instead of the session cookie; no `client: WEB`
 * header and no Origin check, since no browser's cookie can authorise them. Versioned by the base: a change that
 * breaks a caller gets a new base.
 */
export const PUBLIC_API_BASE = '/v1/public';
/** The OpenAPI 3.1 document of the public API, generated from these calls' schemas; itself public. */
export const PUBLIC_API_DOCUMENT_PATH = `${PUBLIC_API_BASE}/openapi.json`;

/** The calls of the public API, in the order the document lists them: a catalogue's whole flow, then the tools. */
export const PUBLIC_CALLS: readonly Call[] = [
  usersMe,
  pointsAccount,
  pointsList,
  pointsSkuPrice,
  projectCreate,
  projectList,
  projectGetById,
  projectGetByIds,
  projectTasks,
  projectRename,
  projectNameAfterProduct,
  projectSaveDraft,
  projectDraftUrl,
  projectDelete,
  linkVideoTemplates,
  linkVideoVoices,
  linkVideoMusic,
  linkVideoCaptions,
  videoModels,
  imageModels,
  productBackgroundList,
  ...TaskKind.options.flatMap((kind) => [taskSubmit(kind), taskQuery(kind), taskCancel(kind)]),
  batchQuote,
  batchCreate,
  batchList,
  batchGet,
  batchRetry,
  batchCancel,
  batchDownloads,
  generationHistory,
  assetList,
  assetStatistics,
  assetUrls,
  assetRename,
  assetDelete,
  assetUploadWithUrl,
  assetUrlTaskSubmit,
  assetUrlTaskQuery,
  fileUrlTransfer,
];

/** `METHOD path` of every public call: what the router registers a second time under PUBLIC_API_BASE. */
export const PUBLIC_CALL_KEYS: ReadonlySet<string> = new Set(PUBLIC_CALLS.map((call) => `${call.method} ${call.path}`));
export const isPublicCall = (call: Call): boolean => PUBLIC_CALL_KEYS.has(`${call.method} ${call.path}`);
