// Product in hand (decision "Product in hand"): one of the caller's presenters, or the catalogue's, holding the
// product, made by the product-holding provider, looked at (one clear face still), kept in the library and as a
// presenter of the caller's own. Priced a still, refunded when the still cannot be made or kept.
import { TASKS } from '@reelsmith/contract';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { presenters } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { checkPicture, fetchPicture } from '../generation/pictures.js';
import { providerOf, runGeneration } from '../generation/run.js';
import { mediaFiles } from '../link-video/video/media.js';
import type { TaskDefinition } from '../tasks/definition.js';
import { checkPresenter, checkRoom, keepPresenter, presenterFor, presenterPicture, presenterView } from './service.js';

type Input = (typeof TASKS)['product-holding']['input']['_output'];
type Result = (typeof TASKS)['product-holding']['result']['_output'];

/** The caller's stored picture `fileId`, as a picture reference; another user's, or one not stored, is not found. */
async function productOf(ctx: AppContext, userId: string, fileId: string): Promise<{ resKey: string }> {
  const [file] = await mediaFiles(ctx, userId, [fileId]);
  if (file?.type !== 'image') throw new AppError('inputNotImage');
  return { resKey: file.resKey };
}

export const productHoldingTask: TaskDefinition<Input, Result> = {
  kind: 'product-holding',
  needs: (ctx) => ctx.providers.productHolding?.needs ?? [],
  input: TASKS['product-holding'].input,
  price: () => ({ sku: 'productHolding', count: 1 }),
  async accept(ctx, user, input) {
    // Another user's presenter or file answers as one that does not exist.
    await presenterFor(ctx, user.userId, input.presenterId);
    await checkPicture(ctx, user.userId, await productOf(ctx, user.userId, input.fileId));
    await checkRoom(ctx, user.userId);
    providerOf(ctx, 'productHolding');
  },
  async run(job) {
    const { ctx, input } = job;
    const provider = providerOf(ctx, 'productHolding');
    const source = await presenterFor(ctx, job.userId, input.presenterId);
    const [still] = await runGeneration(job, {
      prepare: async (dir) => ({
        person: (await presenterPicture(ctx, source, dir)).path,
        product: (await fetchPicture(ctx, job.userId, await productOf(ctx, job.userId, input.fileId), dir, 'product')).path,
      }),
      async generate(pictures, generation) {
        const held = await provider.hold({ ...pictures, prompt: input.prompt }, generation);
        // The still is what the presenter will talk from: the face must have come through whole.
        await checkPresenter(held);
        return [held];
      },
      name: () => `${input.name}.png`,
    });
    if (!still) throw new Error('the product-holding provider made no still');
    const { gender, languages, voiceId } = source;
    return { presenter: await keepPresenter(ctx, job.userId, { resKey: still.resKey, name: input.name, gender, languages, voiceId }) };
  },
  // The presenter as it is now, with a fresh link to its picture; as it was made, once removed.
  async view(result, ctx) {
    const [row] = await ctx.db.select().from(presenters).where(eq(presenters.id, result.presenter.presenterId));
    return row ? { presenter: await presenterView(ctx, row) } : result;
  },
};
