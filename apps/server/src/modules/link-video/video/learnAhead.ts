/**
 * The pictures link analysis imported, learnt while the user reads the product page (decision "The ad engine"): each
 * one's subject (and a set's cut-out) found by the subject model into the render cache, where the first preview reads
 * it instead of waiting for the model. One picture at a time in this process, after the ones asked for before, on
 * the model's single thread; a preview that asks for a picture being learnt waits for that one run. Only a head
 * start: a picture that cannot be learnt is logged, and its preview meets the problem where it uses the picture.
 */
import { learnPicture } from '@reelsmith/media';
import type { AppContext } from '../../../context.js';
import type { FileRow } from '../../../db/schema.js';
import { cacheDirOf } from '../../files/workDir.js';
import type { TaskLog } from '../../tasks/definition.js';
import { localCopy } from './media.js';

/** An ad shows the first pictures of a product first: more than this are learnt when a preview needs them. */
export const LEARN_AHEAD_PICTURES = 8;

let queue: Promise<void> = Promise.resolve();

/** Queues the pictures among `rows` (the first LEARN_AHEAD_PICTURES) to be learnt; answers when they have been. */
export function learnAhead(ctx: AppContext, log: TaskLog, rows: readonly FileRow[]): Promise<void> {
  const pictures = rows.filter((row) => row.type === 'image' && row.resKey).slice(0, LEARN_AHEAD_PICTURES);
  for (const row of pictures) {
    queue = queue.then(async () => {
      try {
        await learnPicture(await localCopy(ctx, row.resKey as string, row.format), cacheDirOf(ctx.settings.dataDir));
      } catch (error) {
        log.warn({ err: error, fileId: row.id }, 'learning a picture ahead of its preview failed');
      }
    });
  }
  return queue;
}
