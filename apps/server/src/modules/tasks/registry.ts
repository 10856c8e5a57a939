// Every kind of task this server runs: the definitions the routes, the queue and the worker are built from.
import { assetUrlImportTask } from '../assets/urlImport.js';
import { GENERATION_TASKS } from '../generation/tasks.js';
import { IMAGE_EDIT_TASKS } from '../image-edit/tasks.js';
import { linkAnalysisTask } from '../link-video/analysis/task.js';
import { exportVideoTask, linkVideoTask, scriptUpdateTask } from '../link-video/video/tasks.js';
import type { AnyTaskDefinition } from './definition.js';

export const TASK_DEFINITIONS: readonly AnyTaskDefinition[] = [
  assetUrlImportTask,
  linkAnalysisTask,
  linkVideoTask,
  scriptUpdateTask,
  exportVideoTask,
  ...GENERATION_TASKS,
  ...IMAGE_EDIT_TASKS,
];
