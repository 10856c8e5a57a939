import {
  assetUrlTaskQuery,
  assetUrlTaskSubmit,
  EXPORT_RESULT_NUM,
  EXPORT_VIDEO_LENGTH_TYPE,
  type TaskQueryData,
  type TaskStatus,
  taskQuery,
  taskSubmit,
} from '@reelsmith/contract';
import { api } from '../../../shared/api/client';
import { i18n } from '../../../shared/i18n/i18n';
import { PollError, pollAssetUrlTask, pollTask } from '../../../shared/polling/poll';
import { toast } from '../../../shared/ui/toast';
import { refreshCredits } from '../../credits/credits';
import {
  type AddOutcome,
  addAssets,
  allAssets,
  CAP_MESSAGES,
  capAssets,
  formatOfName,
  importFailed,
  importSucceeded,
  nameOf,
  submitted,
  tasksForProduct,
} from './assets';
import { type Segment, splitScript } from './script';
import { currentProject, saveDraftNow, updateProject, useProjectStore } from './store';
import { emptyProduct, isUnfinished, type Product, type Project, type ProjectAsset, type ProjectTaskPath } from './types';
import { refreshAssetUrls } from './urls';

/** Aborted when the project is left, so its polls stop (and land nowhere). */
let polls = new AbortController();

export function stopPolling(): void {
  polls.abort();
  polls = new AbortController();
}

const setTaskStatus = (projectId: string, taskId: string, taskStatus: TaskStatus) =>
  updateProject(projectId, (project) => (project.taskId === taskId ? { ...project, taskStatus } : project));

/** Polls a task of the project, keeping its status and the progress stage current (spec §4). */
function pollProjectTask<K extends ProjectTaskPath>(kind: K, projectId: string, taskId: string, tracksProject = true) {
  return pollTask<TaskQueryData<K>>({
    query: async (signal) => {
      const data = await api(taskQuery(kind), { query: { taskId }, signal, silent: true });
      if (data.progress) useProjectStore.setState({ progress: data.progress });
      return data;
    },
    onStatus: (status) => {
      if (tracksProject) setTaskStatus(projectId, taskId, status);
    },
    signal: polls.signal,
  });
}

/** A poll that ended without a result: the message is kept for the page and, for analysis, toasted. */
function failed(error: unknown, toastIt = false): void {
  if (!(error instanceof PollError)) throw error;
  useProjectStore.setState({ failure: error.message, progress: null });
  if (toastIt) toast.error(error.message);
}

/** Marks the project's new task submitted; a new submit clears the last failure. */
function submittedTask(projectId: string, taskPath: ProjectTaskPath, taskId: string, change: (project: Project) => Project = (p) => p) {
  useProjectStore.setState({ failure: null, progress: null });
  updateProject(projectId, (project) => change({ ...project, taskPath, taskId, taskStatus: 'SUBMITTED' }));
}

// Link analysis

/** Analyses the product link, from the page HTML the extension stored when there is one (spec §4). */
export async function startAnalysis(): Promise<void> {
  const project = currentProject();
  if (!project) return;
  const { taskId } = await api(taskSubmit('link-analysis'), {
    body: { projectId: project.projectId, productLink: project.productLink, resKey: project.htmlResKey },
  });
  submittedTask(project.projectId, 'link-analysis', taskId);
  void followAnalysis(project.projectId, taskId);
}

async function followAnalysis(projectId: string, taskId: string): Promise<void> {
  try {
    const data = await pollProjectTask('link-analysis', projectId, taskId);
    const project = currentProject();
    if (!data || project?.projectId !== projectId) return;
    const kept = (items: MediaRef[] | undefined) => (items ?? []).filter((item) => item.fileId || item.fileUrl);
    const { product, pending, dropped } = productFromAnalysis(project.product, {
      productName: data.productName ?? '',
      productDescription: data.productDescription ?? '',
      images: kept(data.productImages),
      videos: kept(data.productVideos),
    });
    if (dropped > 0) toast.error(i18n.t('link-to-video:product.partAssetsError'));
    updateProject(projectId, ({ htmlResKey: _analysed, ...rest }) => ({
      // The stored page served its analysis; a re-run fetches the live page.
      ...rest,
      product,
      assetUrlTasks: [
        ...tasksForProduct(rest.assetUrlTasks, product),
        ...pending.map((fileId) => ({ fileId, taskId: null, taskStatus: 'NOT_START' as const })),
      ],
    }));
    useProjectStore.setState({ progress: null });
    await refreshAssetUrls(projectId);
    resumeAssetUrlTasks();
  } catch (error) {
    failed(error, true);
  }
}

type MediaRef = { fileId?: string; fileUrl?: string };

/**
 * The product an analysis found replaces the one in hand, keeping the chosen script, within the cap (videos
 * first). Media the service imported come with a fileId; a bare link becomes a URL import whose id stays
 * local until the import answers (`pending`).
 */
export function productFromAnalysis(
  previous: Product | null,
  found: { productName: string; productDescription: string; images: MediaRef[]; videos: MediaRef[] },
): { product: Product; pending: string[]; dropped: number } {
  const pending: string[] = [];
  const asset =
    (kind: string) =>
    (media: MediaRef, index: number): ProjectAsset => {
      const url = media.fileUrl ?? '';
      const fileId = media.fileId ?? `link-${kind}-${index}`;
      if (!media.fileId) pending.push(fileId);
      return { fileId, fileName: url ? nameOf(url) : fileId, fileUrl: url, resKey: null, format: url ? formatOfName(url) : null };
    };
  const { dropped, ...kept } = capAssets(found.videos.map(asset('video')), found.images.map(asset('image')));
  const product = { ...emptyProduct(), ...previous, productName: found.productName, productDescription: found.productDescription, ...kept };
  const present = new Set(allAssets(product).map((item) => item.fileId));
  return { product, pending: pending.filter((fileId) => present.has(fileId)), dropped };
}

// Assets

/** Adds items to the product within the cap; the message of spec §5 says what did not fit. */
export function addProductAssets(items: ProjectAsset[]): AddOutcome {
  const project = currentProject();
  if (!project) return 'none';
  const { product, outcome } = addAssets(project.product ?? emptyProduct(), items);
  const message = CAP_MESSAGES[outcome];
  if (message) toast.error(i18n.t(`link-to-video:${message}`));
  updateProject(project.projectId, (current) => ({ ...current, product }));
  return outcome;
}

let localIds = 0;

/** Imports an asset from a link (spec §4 asset URL task): a placeholder item now, the stored file when it lands. */
export function importAssetFromUrl(url: string): AddOutcome {
  const fileId = `url-${Date.now().toString(36)}-${++localIds}`;
  const outcome = addProductAssets([{ fileId, fileName: nameOf(url), fileUrl: url, resKey: null, format: formatOfName(url) }]);
  const project = currentProject();
  if (!project || !allAssets(project.product ?? emptyProduct()).some((item) => item.fileId === fileId)) return outcome;
  updateProject(project.projectId, (current) => ({
    ...current,
    assetUrlTasks: [...current.assetUrlTasks, { fileId, taskId: null, taskStatus: 'NOT_START' }],
  }));
  resumeAssetUrlTasks();
  return outcome;
}

/** The URL tasks being followed, by local fileId, so a resume does not poll one twice. */
const followed = new Set<string>();

/** Submits URL tasks not yet started and polls the submitted ones; the project's task status is left alone. */
export function resumeAssetUrlTasks(): void {
  const project = currentProject();
  if (!project) return;
  for (const task of project.assetUrlTasks) {
    const key = `${project.projectId}/${task.fileId}`;
    if (followed.has(key)) continue;
    followed.add(key);
    void followAssetUrlTask(project.projectId, task.fileId, task.taskId).finally(() => followed.delete(key));
  }
}

async function followAssetUrlTask(projectId: string, fileId: string, knownTaskId: string | null): Promise<void> {
  const signal = polls.signal;
  const fail = () =>
    updateProject(projectId, (p) => ({ ...p, ...assetUrlResult(p, (product, tasks) => importFailed(product, tasks, fileId)) }));
  let taskId = knownTaskId;
  if (!taskId) {
    const url = allAssets(currentProject()?.product ?? emptyProduct()).find((item) => item.fileId === fileId)?.fileUrl ?? '';
    try {
      taskId = (await api(assetUrlTaskSubmit, { body: { url }, signal })).fileId;
    } catch {
      if (!signal.aborted) fail();
      return;
    }
    const started = taskId;
    updateProject(projectId, (p) => ({ ...p, assetUrlTasks: submitted(p.assetUrlTasks, fileId, started) }));
  }
  const id = taskId;
  try {
    const data = await pollAssetUrlTask({
      query: (querySignal) => api(assetUrlTaskQuery, { query: { fileId: id }, signal: querySignal, silent: true }),
      signal,
    });
    if (!data) return;
    const stored = { fileId: id, resKey: data.fileKey ?? '', fileUrl: data.fileUrl ?? '' };
    updateProject(projectId, (p) => ({ ...p, ...assetUrlResult(p, (product, tasks) => importSucceeded(product, tasks, fileId, stored)) }));
  } catch (error) {
    if (!(error instanceof PollError)) throw error;
    toast.error(error.message);
    fail();
  }
}

function assetUrlResult(
  project: Project,
  change: (product: Product, tasks: Project['assetUrlTasks']) => { product: Product; tasks: Project['assetUrlTasks'] },
): Pick<Project, 'product' | 'assetUrlTasks'> {
  const { product, tasks } = change(project.product ?? emptyProduct(), project.assetUrlTasks);
  return { product, assetUrlTasks: tasks };
}

// Generation

/** The script fields of the video submit (spec §3): the description or the user's own text, or none for AI. */
export function scriptFields(product: Product): { diyScript: boolean; diyScriptContent?: string } {
  if (product.scriptSource === 'ai') return { diyScript: false };
  return { diyScript: true, diyScriptContent: product.scriptSource === 'own' ? product.diyScriptContent : product.productDescription };
}

/** Stored items only: a link still importing has no file to make a video from. */
export const usableFileIds = (project: Project): string[] => {
  const importing = new Set(project.assetUrlTasks.map((task) => task.fileId));
  return allAssets(project.product ?? emptyProduct())
    .map((item) => item.fileId)
    .filter((fileId) => !importing.has(fileId));
};

/** Submits the video task: SUBMITTED, the preview cleared, the draft saved, then the preview polled (spec §4). */
export async function submitLinkVideo(): Promise<void> {
  const project = currentProject();
  if (!project?.product) return;
  const { product, editorConfig } = project;
  const { taskId } = await api(taskSubmit('link-video'), {
    body: {
      projectId: project.projectId,
      productLink: project.productLink,
      productName: product.productName,
      productDescription: product.productDescription,
      ...scriptFields(product),
      fileIds: usableFileIds(project),
      editorConfig,
      captionId: editorConfig.captionId,
      voiceId: editorConfig.voiceId,
    },
  });
  submittedTask(project.projectId, 'link-video', taskId, (p) => ({
    ...p,
    preview: null,
    exports: null,
    exportTaskIds: [],
    editedScriptId: null,
  }));
  await saveDraftNow();
  void followPreview(project.projectId, 'link-video', taskId);
}

async function followPreview(projectId: string, kind: 'link-video' | 'script-update', taskId: string): Promise<void> {
  try {
    const data = await pollProjectTask(kind, projectId, taskId);
    if (!data) return;
    const result = { previewVideos: data.previewVideos ?? [], scriptContentList: data.scriptContentList ?? [] };
    updateProject(projectId, (project) =>
      kind === 'link-video'
        ? { ...project, preview: result, editedScriptId: result.previewVideos[0]?.scriptId ?? null }
        : withEditedVideo(project, result),
    );
    useProjectStore.setState({ progress: null });
  } catch (error) {
    failed(error);
  }
}

/**
 * A script update's answer: its first video becomes the edited video (spec §4), in the place of the one
 * that was edited; the other previews stay.
 */
export function withEditedVideo(project: Project, result: NonNullable<Project['preview']>): Project {
  const video = result.previewVideos[0];
  const preview = project.preview ?? { previewVideos: [], scriptContentList: [] };
  if (!video) return project;
  const script = result.scriptContentList.find((item) => item.scriptId === video.scriptId);
  const index = preview.previewVideos.findIndex((item) => item.scriptId === project.editedScriptId);
  const previewVideos = [...preview.previewVideos];
  if (index >= 0) previewVideos[index] = video;
  else previewVideos.unshift(video);
  const scriptContentList = [
    ...preview.scriptContentList.filter((item) => item.scriptId !== project.editedScriptId && item.scriptId !== video.scriptId),
    ...(script ? [script] : []),
  ];
  return { ...project, preview: { previewVideos, scriptContentList }, editedScriptId: video.scriptId };
}

/**
 * Re-renders the edited video with its customised script (spec §4), and with the voice, subtitle style and
 * music the quick editor has chosen since: without them the render keeps the first generation's.
 */
export async function submitScriptUpdate(segments: Segment[]): Promise<void> {
  const project = currentProject();
  const video = project?.preview?.previewVideos.find((item) => item.scriptId === project.editedScriptId);
  if (!project || !video) return;
  const { voiceId, captionId, musicId } = project.editorConfig;
  const { taskId } = await api(taskSubmit('script-update'), {
    body: {
      projectId: project.projectId,
      taskId: video.taskId,
      resultNum: 1,
      scriptId: video.scriptId,
      scriptContents: segments,
      voiceId,
      captionId,
      musicId,
    },
  });
  submittedTask(project.projectId, 'script-update', taskId);
  await saveDraftNow();
  void followPreview(project.projectId, 'script-update', taskId);
}

/** Keeps the script typed in the quick editor (autosave): the edited video's segments. */
export function saveEditedScript(text: string): void {
  const project = currentProject();
  if (!project?.preview || !project.editedScriptId) return;
  const scriptId = project.editedScriptId;
  const segments = splitScript(text);
  updateProject(project.projectId, (p) => ({
    ...p,
    preview: p.preview && {
      ...p.preview,
      scriptContentList: p.preview.scriptContentList.map((item) => (item.scriptId === scriptId ? { ...item, segments } : item)),
    },
  }));
}

// Export

/**
 * Renders the chosen previews in full quality (spec §4): one export task each with resultNum 1 and
 * videoLengthType "2", then credits refreshed, exports cleared, the draft saved and the exports polled.
 */
export async function submitExport(scriptIds: string[]): Promise<void> {
  const project = currentProject();
  const videos = (project?.preview?.previewVideos ?? []).filter((video) => scriptIds.includes(video.scriptId));
  if (!project || videos.length === 0) return;
  const taskIds: string[] = [];
  for (const video of videos) {
    const answer = await api(taskSubmit('export-video'), {
      body: {
        projectId: project.projectId,
        taskId: video.taskId,
        resultNum: EXPORT_RESULT_NUM,
        scriptId: video.scriptId,
        videoLengthType: EXPORT_VIDEO_LENGTH_TYPE,
      },
    });
    taskIds.push(answer.taskId);
  }
  const last = taskIds[taskIds.length - 1] ?? '';
  submittedTask(project.projectId, 'export-video', last, (p) => ({ ...p, exports: null, exportTaskIds: taskIds }));
  void refreshCredits();
  await saveDraftNow();
  void followExports(project.projectId, taskIds);
}

async function followExports(projectId: string, taskIds: string[]): Promise<void> {
  const results = await Promise.allSettled(
    taskIds.map(async (taskId) => {
      // Only the last is the project's task; its status is set once every export has ended.
      const data = await pollProjectTask('export-video', projectId, taskId, false);
      if (!data) return;
      const exportVideos = data.exportVideos ?? [];
      updateProject(projectId, (project) => ({
        ...project,
        exports: { exportVideos: [...(project.exports?.exportVideos ?? []).filter((v) => v.taskId !== taskId), ...exportVideos] },
      }));
    }),
  );
  if (polls.signal.aborted) return;
  const failure = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  const anyDone = results.some((result) => result.status === 'fulfilled');
  updateProject(projectId, (project) => ({ ...project, taskStatus: anyDone ? 'SUCCESS' : 'FAILURE' }));
  if (failure) failed(failure.reason);
  else useProjectStore.setState({ progress: null });
}

/** Unfinished tasks resume on return (spec §4); one already at SUCCESS is not asked again. */
export function resumeTasks(): void {
  const project = currentProject();
  if (!project) return;
  resumeAssetUrlTasks();
  const { projectId, taskId, taskPath, taskStatus } = project;
  if (!taskId || !taskPath || !isUnfinished(taskStatus)) return;
  if (taskPath === 'link-analysis') void followAnalysis(projectId, taskId);
  else if (taskPath === 'export-video') {
    const done = new Set((project.exports?.exportVideos ?? []).map((video) => video.taskId));
    const ids = project.exportTaskIds.length > 0 ? project.exportTaskIds : [taskId];
    void followExports(
      projectId,
      ids.filter((id) => !done.has(id)),
    );
  } else void followPreview(projectId, taskPath, taskId);
}

// Edits

/** Changes product fields of the current project; the draft follows. */
export function patchProduct(patch: Partial<Product>): void {
  const project = currentProject();
  if (project) updateProject(project.projectId, (p) => ({ ...p, product: { ...(p.product ?? emptyProduct()), ...patch } }));
}

export function patchEditorConfig(patch: Partial<Project['editorConfig']>): void {
  const project = currentProject();
  if (project) updateProject(project.projectId, (p) => ({ ...p, editorConfig: { ...p.editorConfig, ...patch } }));
}

/** Removes an asset, and its URL import if it was one. */
export function removeProductAsset(fileId: string): void {
  const project = currentProject();
  if (project)
    updateProject(project.projectId, (p) => ({ ...p, ...assetUrlResult(p, (product, tasks) => importFailed(product, tasks, fileId)) }));
}

export function editVideo(scriptId: string): void {
  const project = currentProject();
  if (project) updateProject(project.projectId, (p) => ({ ...p, editedScriptId: scriptId }));
}
