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
} from '@reelsmith/contract';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import { localeOf } from '../../http/locale.js';
import { defineModule } from '../../http/module.js';
import { apiBase } from '../../settings.js';
import { withCard, withCards } from './cards.js';
import {
  createProject,
  deleteProjects,
  getProject,
  getProjectSummary,
  getProjectsByIds,
  listProjects,
  listProjectTasks,
  nameAfterProduct,
  renameProject,
  saveDraft,
} from './service.js';

/** Where a draft is read from: a signed link, so the web app can GET it like any stored file. */
const DRAFT_FILE_PATH = '/project/draftFile';
/** An untitled project is called so in the reader's language. */
const readerLocale = (req: FastifyRequest) => localeOf(req.headers['accept-language']);

/** A draft link is fetched right after it is asked for; an hour covers a slow network and a paused tab. */
const DRAFT_URL_TTL_MS = 60 * 60_000;

export const projectsModule = defineModule((api, { route, ctx, signer }) => {
  const { db, settings } = ctx;
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
  route(projectNameAfterProduct, async ({ user, body, req }) => {
    await nameAfterProduct(db, user.userId, body.projectId, body.productName);
    const { projectName } = await getProjectSummary(db, user.userId, body.projectId, readerLocale(req));
    return { projectName };
  });
  route(projectGetById, async ({ user, query, req }) =>
    withCard(ctx, user.userId, await getProjectSummary(db, user.userId, query.projectId, readerLocale(req))),
  );
  route(projectList, async ({ user, body, req }) => {
    const { list, total } = await listProjects(db, user.userId, body.page, body.pageSize, body.sort, readerLocale(req));
    return { list: await withCards(ctx, user.userId, list), total };
  });
  route(projectGetByIds, async ({ user, body, req }) =>
    withCards(ctx, user.userId, await getProjectsByIds(db, user.userId, body.projectIds, readerLocale(req))),
  );
  route(projectTasks, async ({ user, query }) => listProjectTasks(db, user.userId, query.projectId));
  route(projectDelete, async ({ user, body }) => {
    await deleteProjects(db, user.userId, body.projectIds);
    return true as const;
  });
  route(projectSaveDraft, async ({ user, body }) => {
    await saveDraft(db, ctx.settings.storageQuotaBytes, user.userId, body.projectId, body.draftContent);
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
