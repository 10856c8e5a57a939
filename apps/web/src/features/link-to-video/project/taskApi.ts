// The link-to-video tasks' answers, held in the query cache (decision "Server data in queries"): the project's
// controller follows them there (followTask), and the pages read from the same keys where the work stands and why it
// failed. The draft keeps only which tasks are the project's and what they made.
import { assetUrlTaskQuery, type ProgressStage, type TaskQueryData, taskQuery } from '@reelsmith/contract';
import { type QueryClient, type QueryFunctionContext, useQueries } from '@tanstack/react-query';
import { api } from '../../../shared/api/client';
import { callKey } from '../../../shared/api/queries';
import { i18n } from '../../../shared/i18n/i18n';
import type { TaskReading } from '../../../shared/polling/followTask';
import { assetUrlTaskStatus, messageOf, type TaskAnswer } from '../../../shared/polling/poll';
import { endsAtOf, lastEnd } from '../../../shared/progress/estimate';
import { isUnfinished, type Project, type ProjectTaskPath } from './types';

export const projectTaskKey = (kind: ProjectTaskPath, taskId: string) => callKey(taskQuery(kind), { taskId });

/** One question about a task, silent: a failing request is asked again rather than toasted every 2 s. */
export const askTask =
  <K extends ProjectTaskPath>(kind: K, taskId: string, call: typeof api = api) =>
  ({ signal }: QueryFunctionContext): Promise<TaskQueryData<K>> =>
    call(taskQuery(kind), { query: { taskId }, signal, silent: true });

export const readTask = (data: TaskAnswer): TaskReading => ({ status: data.status, message: messageOf(data.error) });

export const assetUrlTaskKey = (taskId: string) => callKey(assetUrlTaskQuery, { fileId: taskId });

export const askAssetUrlTask =
  (taskId: string, call: typeof api = api) =>
  ({ signal }: QueryFunctionContext) =>
    call(assetUrlTaskQuery, { query: { fileId: taskId }, signal, silent: true });

export const readAssetUrlTask = (data: { status: number; errorMsg?: string | null }): TaskReading => ({
  status: assetUrlTaskStatus(data.status),
  message: data.errorMsg || undefined,
});

/**
 * What the client concluded of a task it gave up on (its attempts ran out): kept as the task's last answer, where
 * the pages read why it ended.
 */
export const timedOutAnswer = (answer: TaskAnswer | undefined, taskId: string): TaskAnswer & { taskId: string } => ({
  ...answer,
  taskId,
  status: 'FAILURE',
  error: JSON.stringify({ message: i18n.t('polling:timedOut') }),
});

/** The tasks whose answers say where the project's work stands: its task, or every export of the last render. */
export function currentTasks(project: Project | null): { kind: ProjectTaskPath; taskId: string }[] {
  if (!project?.taskId || !project.taskPath) return [];
  const kind = project.taskPath;
  const ids = kind === 'export-video' && project.exportTaskIds.length > 0 ? project.exportTaskIds : [project.taskId];
  return ids.map((taskId) => ({ kind, taskId }));
}

type Answer = TaskAnswer & { progress?: ProgressStage | null; expectedSeconds?: number; elapsedSeconds?: number };

/** A task's last answer as its query holds it, and when it came (ms, this browser's clock). */
interface Reading {
  data: Answer | undefined;
  dataUpdatedAt: number;
}

export interface TaskState {
  /** The stage a running task reports (spec "States and transitions" progress messages). */
  progress: ProgressStage | null;
  /** Why the project's task failed, ready to show; none once another task is submitted. */
  failure: string | null;
  /**
   * When the work under way should end, on this browser's clock: the last of its tasks' ends, each as its answer
   * tells it (decision "Progress estimates"); null when one of them has no estimate.
   */
  endsAt: number | null;
}

export function taskStateOf(readings: Reading[]): TaskState {
  const answers = readings.map((reading) => reading.data);
  const progress = answers.find((answer) => answer && isUnfinished(answer.status) && answer.progress)?.progress ?? null;
  const failed = answers.find((answer) => answer?.status === 'FAILURE');
  const underWay = readings.filter((reading) => reading.data && isUnfinished(reading.data.status));
  return {
    progress,
    failure: failed ? (messageOf(failed.error) ?? i18n.t('polling:failed')) : null,
    endsAt: lastEnd(underWay.map((reading) => endsAtOf(reading.data, reading.dataUpdatedAt))),
  };
}

/** The state of the project's work as the cache holds it, outside React (the controller's tests read it so). */
export const projectTaskState = (queryClient: QueryClient, project: Project | null): TaskState =>
  taskStateOf(
    currentTasks(project).map(({ kind, taskId }) => {
      const state = queryClient.getQueryState<Answer>(projectTaskKey(kind, taskId));
      return { data: state?.data, dataUpdatedAt: state?.dataUpdatedAt ?? 0 };
    }),
  );

/**
 * The state of the project's work for its pages. They only read: the open project's controller does the asking,
 * so it goes on while the user moves between pages.
 */
export function useProjectTaskState(project: Project | null): TaskState {
  return useQueries({
    queries: currentTasks(project).map(({ kind, taskId }) => ({
      queryKey: projectTaskKey(kind, taskId),
      queryFn: askTask(kind, taskId),
      enabled: false,
    })),
    combine: (results) => taskStateOf(results.map(({ data, dataUpdatedAt }) => ({ data: data as Answer | undefined, dataUpdatedAt }))),
  });
}
