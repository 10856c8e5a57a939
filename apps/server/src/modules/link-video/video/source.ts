// What a script update or an export renders: the preview's row (decision "Previews as rows"), written by the
// link-video task that made it and rewritten by each script update. The web app names the project's current task,
// which is the link-video task or a script update made after it (spec "States and transitions", decision "Script
// update chain"): every task that rendered one of the previews is recorded beside them, so any of them finds them
// without following the tasks' inputs back.
import type { PresenterLayout, TASKS, TemplateId } from '@reelsmith/contract';
import type { AspectRatio, Language, VideoLength } from '@reelsmith/media';
import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../../db/client.js';
import { type PreviewProduct, type PreviewRow, previewRenders, previews } from '../../../db/schema.js';
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
  /** The presenter on camera, if any (decision "Presenter in link to video"). */
  presenterId: string | undefined;
  /** Where they stand, when chosen; absent, where the template puts them (decision "Presenter layouts"). */
  presenterLayout: PresenterLayout | undefined;
}

export type LinkVideoInput = z.output<(typeof TASKS)['link-video']['input']>;
export type ScriptUpdateInput = z.output<(typeof TASKS)['script-update']['input']>;
export type VideoResult = z.output<(typeof TASKS)['link-video']['result']>;
export type Segment = { segId: number; segText: string };
/**
 * The quick editor's choices a script update may change for one preview (a null presenter takes them out, a null
 * layout leaves it to the template).
 */
export type Look = Partial<Pick<ScriptUpdateInput, 'voiceId' | 'captionId' | 'musicId' | 'templateId' | 'presenterId' | 'presenterLayout'>>;

/** What a preview is rendered from: its row without the file it became and the bookkeeping. */
export type PreviewSpec = Pick<
  PreviewRow,
  | 'variant'
  | 'segments'
  | 'templateId'
  | 'voiceId'
  | 'musicId'
  | 'captionId'
  | 'aspectRatio'
  | 'videoLength'
  | 'language'
  | 'product'
  | 'fileIds'
  | 'presenterId'
  | 'presenterLayout'
>;

/** The choices an update names, without the ones it leaves alone. */
export const lookOf = ({ voiceId, captionId, musicId, templateId, presenterId, presenterLayout }: Look): Look =>
  Object.fromEntries(
    Object.entries({ voiceId, captionId, musicId, templateId, presenterId, presenterLayout }).filter(([, v]) => v !== undefined),
  );

/** A preview with the choices a script update makes for it; what it leaves alone stays as the preview has it. */
export const withLook = <T extends PreviewSpec>(preview: T, look: Look): T => ({ ...preview, ...lookOf(look) });

/** The settings the media engine renders a preview with (null choices: the default for the language spoken). */
export const settingsOf = (preview: PreviewSpec): VideoSettings => ({
  videoLength: preview.videoLength,
  aspectRatio: preview.aspectRatio,
  resultNum: 1,
  voiceId: preview.voiceId ?? undefined,
  captionId: preview.captionId ?? undefined,
  musicId: preview.musicId ?? undefined,
  language: preview.language ?? undefined,
  templateId: preview.templateId,
  presenterId: preview.presenterId ?? undefined,
  presenterLayout: preview.presenterLayout ?? undefined,
});

/** The product as a link-video task was given it, for the cards and the file's name. */
export const productOf = (input: LinkVideoInput): PreviewProduct => ({
  productName: input.productName,
  productDescription: input.productDescription,
  productBrand: input.productBrand,
  productOffer: input.productOffer,
  productFacts: input.productFacts,
});

/**
 * The preview `scriptId` among those of the task `taskId` leads to, in the user's project: refused as not found
 * when that task rendered none of the user's previews in that project (not theirs, not finished, not a video
 * task), and as an unknown script when those previews have no such script.
 */
export async function previewOf(db: Db, userId: string, projectId: string, taskId: string, scriptId: string): Promise<PreviewRow> {
  const [named] = await db
    .select({ madeBy: previews.taskId })
    .from(previewRenders)
    .innerJoin(previews, eq(previews.id, previewRenders.previewId))
    .where(and(eq(previewRenders.taskId, taskId), eq(previews.userId, userId), eq(previews.projectId, projectId)))
    .limit(1);
  if (!named) throw new AppError('previewNotFound');
  const [row] = await db
    .select()
    .from(previews)
    .where(and(eq(previews.taskId, named.madeBy), eq(previews.scriptId, scriptId)));
  if (!row) throw new AppError('scriptNotFound');
  return row;
}

/** A preview as a link-video task made it, before it is stored. */
export type MadePreview = PreviewSpec & { scriptId: string; resKey: string; fileId: string | null; presenterSeconds: number | null };

/** Stores the previews a link-video task made, each a render of that task (TaskJob.atCompletion's write). */
export async function storePreviews(
  tx: Db,
  task: { taskId: string; userId: string; projectId: string },
  made: readonly (MadePreview & { id: string })[],
): Promise<void> {
  if (!made.length) return;
  await tx.insert(previews).values(made.map((preview) => ({ ...preview, ...task })));
  await tx.insert(previewRenders).values(made.map((preview) => ({ taskId: task.taskId, previewId: preview.id })));
}

/** Rewrites a preview a script update re-rendered, and records that update as one of its renders. */
export async function storeRerender(
  tx: Db,
  previewId: string,
  taskId: string,
  rendered: Pick<
    PreviewRow,
    | 'segments'
    | 'templateId'
    | 'voiceId'
    | 'musicId'
    | 'captionId'
    | 'presenterId'
    | 'presenterSeconds'
    | 'presenterLayout'
    | 'resKey'
    | 'fileId'
  >,
): Promise<void> {
  const [updated] = await tx
    .update(previews)
    .set({ ...rendered, updatedAt: sql`now()` })
    .where(eq(previews.id, previewId))
    .returning({ id: previews.id });
  // The project (and its previews) deleted while the update rendered: nothing is left to update, and the update fails.
  if (!updated) throw new AppError('previewNotFound');
  await tx.insert(previewRenders).values({ taskId, previewId });
}
