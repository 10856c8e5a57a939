import { type ProjectTask, projectTasks, type TaskQueryData, taskQuery } from '@reelsmith/contract';
import type { api } from '../../../shared/api/client';
import { foundInAnalysis, productFromAnalysis, scriptChoiceOf, withEditedVideo } from './results';
import { isUnfinished, type Preview, type Project, type ProjectTaskPath } from './types';

// A project with no draft (made by a batch or the public API) rebuilt from its tasks (decision "Projects without a
// draft"): what the editor would have saved, had the work been done in it. Its first change is saved as any draft.

type Kind = ProjectTask['kind'];

/** The newest task of a kind among `tasks` (newest first), ended as `status` when one is given. */
const newest = (tasks: ProjectTask[], kind: Kind, status?: ProjectTask['status']) =>
  tasks.find((task) => task.kind === kind && (!status || task.status === status));

/**
 * The project's state from its tasks, or null when it has none (it is then a new project, on edit-product):
 * the product from the newest successful analysis, named and scripted as its newest video was made; the
 * previews of that video with the script updates made since; the exports made since; and the newest task as the
 * project's, so one unfinished resumes as a draft's does. `currency` is the reader's, for a page without a price.
 */
export async function rebuildProject(defaults: Project, call: typeof api, currency: string): Promise<Project | null> {
  const query = <K extends Kind>(kind: K, taskId: string): Promise<TaskQueryData<K> | null> =>
    call(taskQuery(kind), { query: { taskId }, silent: true }).catch(() => null);
  const tasks = await call(projectTasks, { query: { projectId: defaults.projectId }, silent: true }).catch((): ProjectTask[] => []);
  const [last] = tasks;
  if (!last) return null;
  const video = newest(tasks, 'link-video');
  // What was made after the newest video belongs to its previews; what came before it was cleared by it.
  const since = video ? tasks.slice(0, tasks.indexOf(video)) : tasks;
  const ended = (kind: Kind) => since.filter((task) => task.kind === kind && task.status === 'SUCCESS').reverse();
  const analysisTask = newest(tasks, 'link-analysis', 'SUCCESS');
  const exportTasks = since.filter((task) => task.kind === 'export-video').reverse();
  const [analysis, previews, updates, exported] = await Promise.all([
    analysisTask ? query('link-analysis', analysisTask.taskId) : null,
    video?.status === 'SUCCESS' ? query('link-video', video.taskId) : null,
    Promise.all(ended('script-update').map(async (task) => ({ task, data: await query('script-update', task.taskId) }))),
    Promise.all(ended('export-video').map((task) => query('export-video', task.taskId))),
  ]);

  let project: Project = { ...defaults, ...(video?.choices?.editorConfig && { editorConfig: video.choices.editorConfig }) };
  if (analysis) {
    const { product, pending } = productFromAnalysis(null, foundInAnalysis(analysis), currency);
    const choices = video?.choices;
    project = {
      ...project,
      product: choices
        ? { ...product, productName: choices.productName, productDescription: choices.productDescription, ...scriptChoiceOf(choices) }
        : product,
      mediaImport: analysis.mediaImport ?? null,
      assetUrlTasks: pending.map((fileId) => ({ fileId, taskId: null, taskStatus: 'NOT_START' })),
    };
  }
  const preview = previews && previewOf(previews);
  if (preview) {
    project = { ...project, preview, editedScriptId: preview.previewVideos[0]?.scriptId ?? null };
    for (const { task, data } of updates) {
      if (data) project = withEditedVideo({ ...project, editedScriptId: task.scriptId ?? project.editedScriptId }, previewOf(data));
    }
    const exportVideos = exported.flatMap((data) => data?.exportVideos ?? []);
    if (exportVideos.length > 0) project = { ...project, exports: { exportVideos } };
  }
  return { ...project, ...projectTask(last, exportTasks) };
}

const previewOf = (data: Partial<Preview>): Preview => ({
  previewVideos: data.previewVideos ?? [],
  scriptContentList: data.scriptContentList ?? [],
});

/**
 * The project's task is its newest. An export is one task per chosen preview, ended together (as the controller
 * ends them): still running while one of them is, done when any succeeded.
 */
function projectTask(last: ProjectTask, exportTasks: ProjectTask[]): Pick<Project, 'taskId' | 'taskPath' | 'taskStatus' | 'exportTaskIds'> {
  const taskPath: ProjectTaskPath = last.kind;
  if (taskPath !== 'export-video') return { taskId: last.taskId, taskPath, taskStatus: last.status, exportTaskIds: [] };
  const running = exportTasks.find((task) => isUnfinished(task.status));
  const anyDone = exportTasks.some((task) => task.status === 'SUCCESS');
  return {
    taskId: last.taskId,
    taskPath,
    taskStatus: running?.status ?? (anyDone ? 'SUCCESS' : 'FAILURE'),
    exportTaskIds: exportTasks.map((task) => task.taskId),
  };
}
