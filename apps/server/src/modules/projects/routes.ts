import {
  projectCreate,
  projectDelete,
  projectDraftUrl,
  projectGetById,
  projectGetByIds,
  projectList,
  projectRename,
  projectSaveDraft,
} from '@reelsmith/contract';
import { AppError } from '../../errors.js';
import { defineModule } from '../../http/module.js';
import { apiBase } from '../../settings.js';
import {
  createProject,
  deleteProjects,
  getProject,
  getProjectSummary,
  getProjectsByIds,
  listProjects,
  renameProject,
  saveDraft,
} from './service.js';

/** Where a draft is read from: a signed link, so the web app can GET it like any stored file. */
const DRAFT_FILE_PATH = '/project/draftFile';
/** A draft link is fetched right after it is asked for; an hour covers a slow network and a paused tab. */
const DRAFT_URL_TTL_MS = 60 * 60_000;

export const projectsModule = defineModule((api, { route, ctx: { db, settings }, signer }) => {
  const drafts = signer.link(`${apiBase(settings)}${DRAFT_FILE_PATH}`, { fields: ['userId', 'projectId'], ttlMs: DRAFT_URL_TTL_MS });
  const draftUrl = (userId: string, projectId: string) => drafts.sign({ userId, projectId });

  route(projectCreate, async ({ user, body }) => {
    const row = await createProject(db, user.userId, body.projectName, body.deviceFingerprint);
    return { projectId: row.id, draftUrl: null };
  });
  route(projectRename, async ({ user, body }) => {
    await renameProject(db, user.userId, body.projectId, body.fileName);
    return true as const;
  });
  route(projectGetById, ({ user, query }) => getProjectSummary(db, user.userId, query.projectId));
  route(projectList, ({ user, body }) => listProjects(db, user.userId, body.page, body.pageSize, body.sort));
  route(projectGetByIds, ({ user, body }) => getProjectsByIds(db, user.userId, body.projectIds));
  route(projectDelete, async ({ user, body }) => {
    await deleteProjects(db, user.userId, body.projectIds);
    return true as const;
  });
  route(projectSaveDraft, async ({ user, body }) => {
    await saveDraft(db, user.userId, body.projectId, body.draftContent);
    return true as const;
  });
  route(projectDraftUrl, async ({ user, body }) => {
    const row = await getProject(db, user.userId, body.projectId);
    return row.draft === null ? null : draftUrl(user.userId, row.id);
  });

  // The draft itself, as the file it stands for: plain JSON, not an envelope; the signature is the authority.
  api.get(DRAFT_FILE_PATH, { config: { skipClientChecks: true } }, async (req, reply) => {
    const params = drafts.verify(req.query);
    if (!params) throw new AppError('notFound');
    const row = await getProject(db, params.userId, params.projectId);
    if (row.draft === null) throw new AppError('notFound');
    return reply.header('content-type', 'application/json; charset=utf-8').header('cache-control', 'private, no-store').send(row.draft);
  });
});
