// What a script update or an export renders: the link-video task that made the previews, with its settings,
// and each script as last edited. The web app names the project's current task, which is the link-video task or
// a script update made after it (spec "States and transitions"), so a script update's `taskId` is followed back to the link-video task.
import type { TASKS, TemplateId } from '@reelsmith/contract';
import type { AspectRatio, Language, VideoLength } from '@reelsmith/media';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../../db/client.js';
import { type TaskRow, tasks } from '../../../db/schema.js';
import { AppError } from '../../../errors.js';

/** What every render of one link-video task keeps (the editorConfig of a link-video task, its defaults filled in). */
export interface VideoSettings {
  videoLength: VideoLength;
  aspectRatio: AspectRatio;
  resultNum: number;
  voiceId: string | undefined;
  captionId: string | undefined;
  musicId: string | undefined;
  language: Language | undefined;
  /** The template chosen for the task or, through a script update, for one preview; absent, each preview's own turn. */
  templateId: TemplateId | undefined;
}

export type LinkVideoInput = z.output<(typeof TASKS)['link-video']['input']>;
export type ScriptUpdateInput = z.output<(typeof TASKS)['script-update']['input']>;
export type VideoResult = z.output<(typeof TASKS)['link-video']['result']>;
export type Segment = { segId: number; segText: string };
/** The quick editor's choices a script update may change for one preview. */
export type Look = Partial<Pick<ScriptUpdateInput, 'voiceId' | 'captionId' | 'musicId' | 'templateId'>>;

export interface VideoSource {
  /** The link-video task whose settings (media, length, voice, music, captions) every render of it keeps. */
  root: TaskRow & { input: LinkVideoInput };
  /** Each script of the previews, as last edited by a script update. */
  scripts: Map<string, Segment[]>;
  /** The voice, captions and music each script's preview was last rendered with, where an update changed them. */
  looks: Map<string, Look>;
}

/** Longer chains are not made by the web app; the bound keeps a hostile chain from looping. */
const MAX_CHAIN = 100;

const VIDEO_KINDS = ['link-video', 'script-update'];

/** The user's finished link-video or script-update tasks of a project, oldest first. */
async function finishedVideoTasks(db: Db, userId: string, projectId: string) {
  return db
    .select()
    .from(tasks)
    .where(and(eq(tasks.userId, userId), eq(tasks.projectId, projectId), eq(tasks.status, 'SUCCESS'), inArray(tasks.kind, VIDEO_KINDS)))
    .orderBy(asc(tasks.finishedAt));
}

/** The link-video task a finished task goes back to, through script updates; undefined when it leads nowhere. */
function rootOf(task: TaskRow, byId: Map<string, TaskRow>): TaskRow | undefined {
  let current: TaskRow | undefined = task;
  for (let hops = 0; current && hops < MAX_CHAIN; hops++) {
    if (current.kind === 'link-video') return current;
    current = byId.get((current.input as ScriptUpdateInput).taskId);
  }
  return undefined;
}

/**
 * The render source of `taskId` in the user's project: refused as not found when it is not a finished
 * link-video or script-update task of theirs in that project.
 */
export async function videoSource(db: Db, userId: string, projectId: string, taskId: string): Promise<VideoSource> {
  const finished = await finishedVideoTasks(db, userId, projectId);
  const byId = new Map(finished.map((t) => [t.id, t]));
  const named = byId.get(taskId);
  const root = named && rootOf(named, byId);
  if (!root) throw new AppError('previewNotFound');
  const scripts = new Map<string, Segment[]>();
  const looks = new Map<string, Look>();
  for (const script of (root.result as VideoResult).scriptContentList) scripts.set(script.scriptId, script.segments);
  for (const task of finished) {
    if (task.kind !== 'script-update' || rootOf(task, byId)?.id !== root.id) continue;
    const edit = task.input as ScriptUpdateInput;
    if (!scripts.has(edit.scriptId)) continue;
    scripts.set(edit.scriptId, edit.scriptContents);
    looks.set(edit.scriptId, { ...looks.get(edit.scriptId), ...lookOf(edit) });
  }
  return { root: root as VideoSource['root'], scripts, looks };
}

/** The choices an update names, without the ones it leaves alone. */
export const lookOf = ({ voiceId, captionId, musicId, templateId }: Look): Look =>
  Object.fromEntries(Object.entries({ voiceId, captionId, musicId, templateId }).filter(([, v]) => v !== undefined));

/** The script to render, or a clear refusal when the previews have no such script. */
export function scriptOf(source: VideoSource, scriptId: string): Segment[] {
  const segments = source.scripts.get(scriptId);
  if (!segments) throw new AppError('scriptNotFound');
  return segments;
}
