import { z } from 'zod';
import { defineCall } from './call.js';
import { Id, Ids, Ok, Page, ProjectName, Timestamp } from './common.js';
import { SortOrder, TaskStatus } from './enums.js';
import { TASKS } from './tasks.js';

/** A project as the library and header see it; the editing state lives in the draft (spec "Entities"). */
export const ProjectSummary = z.object({
  projectId: z.string(),
  projectName: z.string(),
  productLink: z.string().nullable(),
  /** The poster of its newest ad, else its main product picture (decision "Project cards"). */
  coverUrl: z.string().nullable(),
  /** Its newest task's status: whether work is running or failed. */
  taskStatus: TaskStatus.nullable(),
  /** How many videos it has exported. */
  exportCount: z.number().int(),
  createTime: Timestamp,
  updateTime: Timestamp,
});
export type ProjectSummary = z.infer<typeof ProjectSummary>;

/**
 * Without `projectName` the project is untitled until its product is known: it reads "Untitled project" in the
 * reader's language, and takes the product's name from link analysis or `projectNameAfterProduct` (decision
 * "Projects named after the product"). A name given here is the user's and is kept.
 */
export const projectCreate = defineCall({
  method: 'POST',
  path: '/project/createProject',
  access: 'active',
  body: z.strictObject({ projectName: ProjectName.optional(), deviceFingerprint: z.string().max(128).optional() }),
  data: z.object({ projectId: z.string(), draftUrl: z.string().nullable() }),
});

/**
 * Names an untitled project after its product, cut to PROJECT_NAME_MAX characters, and a project named so after the
 * product's new name; a name the user gave (at creation or by renaming) is kept. Answers the project's name either
 * way (decision "Projects named after the product").
 */
export const projectNameAfterProduct = defineCall({
  method: 'POST',
  path: '/project/nameAfterProduct',
  access: 'active',
  body: z.strictObject({ projectId: Id, productName: z.string().trim().min(1).max(500) }),
  data: z.object({ projectName: z.string() }),
});

/** Rename: spec "The calls" calls the new name fileName. */
export const projectRename = defineCall({
  method: 'POST',
  path: '/project/updateProjectFileInfo',
  access: 'active',
  body: z.strictObject({ projectId: Id, fileName: ProjectName }),
  data: Ok,
});

export const projectDelete = defineCall({
  method: 'POST',
  path: '/project/deleteProject',
  access: 'active',
  body: z.strictObject({ projectIds: Ids }),
  data: Ok,
});

export const projectGetById = defineCall({
  method: 'GET',
  path: '/project/getProjectById',
  access: 'active',
  query: z.strictObject({ projectId: Id }),
  data: ProjectSummary,
});

export const projectList = defineCall({
  method: 'POST',
  path: '/project/getProjects',
  access: 'active',
  body: Page.extend({ sort: SortOrder.default('newest') }),
  data: z.object({ list: z.array(ProjectSummary), total: z.number().int() }),
});

export const projectGetByIds = defineCall({
  method: 'POST',
  path: '/project/getProjectByIds',
  access: 'active',
  body: z.strictObject({ projectIds: Ids }),
  data: z.array(ProjectSummary),
});

/** A draft is the whole editing state as JSON text, at most 2 MiB. */
export const DRAFT_MAX_CHARS = 2 * 1024 * 1024;

export const projectSaveDraft = defineCall({
  method: 'POST',
  path: '/project/saveDraftFile',
  access: 'active',
  body: z.strictObject({ projectId: Id, draftContent: z.string().max(DRAFT_MAX_CHARS) }),
  data: Ok,
});

/** The URL the draft is fetched from with GET; null while no draft has been saved. */
export const projectDraftUrl = defineCall({
  method: 'POST',
  path: '/project/getDraftFileUrl',
  access: 'active',
  body: z.strictObject({ projectId: Id }),
  data: z.string().nullable(),
});

/** The task kinds a project's work is made of (spec "States and transitions" taskPath). */
export const ProjectTaskKind = z.enum(['link-analysis', 'link-video', 'script-update', 'export-video']);
export type ProjectTaskKind = z.infer<typeof ProjectTaskKind>;

/** What a link-video task was asked to make its previews with: the product as sent and the editor's choices. */
export const VideoChoices = TASKS['link-video'].input.pick({
  productName: true,
  productDescription: true,
  diyScript: true,
  diyScriptContent: true,
  editorConfig: true,
});
export type VideoChoices = z.infer<typeof VideoChoices>;

/**
 * One task of a project: its results are a `task/v1/<kind>/query` away. A link-video task carries the choices it was
 * made with, and a script update the preview it rewrote (`scriptId`), which its query does not answer.
 */
export const ProjectTask = z.object({
  taskId: z.string(),
  kind: ProjectTaskKind,
  status: TaskStatus,
  createTime: Timestamp,
  choices: VideoChoices.optional(),
  scriptId: z.string().optional(),
});
export type ProjectTask = z.infer<typeof ProjectTask>;

/**
 * The project's link-to-video tasks, newest first: what it holds on the server whether or not a draft was saved, so
 * a project made by a batch or the public API opens in the editor (decision "Projects without a draft").
 */
export const projectTasks = defineCall({
  method: 'GET',
  path: '/project/getProjectTasks',
  access: 'active',
  query: z.strictObject({ projectId: Id }),
  data: z.array(ProjectTask),
});
