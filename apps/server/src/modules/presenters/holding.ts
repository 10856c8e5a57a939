// Product in hand (decision "Product in hand"): one of the caller's presenters, or the catalogue's, holding the
// product (the product-holding provider) or, a garment, wearing it (the try-on provider), looked at (one clear face
// still), kept in the library and as a presenter of the caller's own. Priced a still, or a try-on when worn; refunded
// when the still cannot be made or kept.
import { TASKS } from '@reelsmith/contract';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { presenters } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import type { GenerationJob } from '../../providers/provider.js';
import { checkPicture, fetchPicture } from '../generation/pictures.js';
import { providerOf, runGeneration } from '../generation/run.js';
import { mediaFiles } from '../link-video/video/media.js';
import type { TaskDefinition } from '../tasks/definition.js';
import { checkPresenter, checkRoom, keepPresenter, presenterFor, presenterPicture, presenterView } from './service.js';

type Input = (typeof TASKS)['product-holding']['input']['_output'];
type Result = (typeof TASKS)['product-holding']['result']['_output'];
/** The presenter's portrait and the product's picture, as files of the work directory. */
type Pictures = { person: string; product: string };

/** Who makes the still (decision "Product in hand"): a garment is worn, through the try-on provider; anything else held. */
const makerOf = (input: Input): 'virtualTryOn' | 'productHolding' => (input.garmentType ? 'virtualTryOn' : 'productHolding');

/** The caller's stored picture `fileId`, as a picture reference; another user's, or one not stored, is not found. */
async function productOf(ctx: AppContext, userId: string, fileId: string): Promise<{ resKey: string }> {
  const [file] = await mediaFiles(ctx, userId, [fileId]);
  if (file?.type !== 'image') throw new AppError('inputNotImage');
  return { resKey: file.resKey };
}

/** The presenter wearing the garment, asked as the try-on tool asks: a one-piece goes as the top, as a top does. */
async function wear(ctx: AppContext, garmentType: NonNullable<Input['garmentType']>, pictures: Pictures, job: GenerationJob) {
  const garment = garmentType === 'bottom' ? { bottom: pictures.product } : { top: pictures.product };
  const [worn] = await providerOf(ctx, 'virtualTryOn').generate({ garmentType, model: pictures.person, ...garment, count: 1 }, job);
  if (!worn) throw new Error('the try-on provider made no still');
  return worn;
}

/** The still of the presenter with the product: wearing it when it is a garment, else holding it. */
function stillOf(ctx: AppContext, input: Input, pictures: Pictures, job: GenerationJob): Promise<string> {
  if (input.garmentType) return wear(ctx, input.garmentType, pictures, job);
  return providerOf(ctx, 'productHolding').hold({ ...pictures, prompt: input.prompt }, job);
}

export const productHoldingTask: TaskDefinition<Input, Result> = {
  kind: 'product-holding',
  // The parts are checked whatever the input, and a garment asks the try-on provider: both providers' count.
  needs: (ctx) => [...(ctx.providers.productHolding?.needs ?? []), ...(ctx.providers.virtualTryOn?.needs ?? [])],
  input: TASKS['product-holding'].input,
  // A garment worn costs what a try-on costs, for it is one (decision "Product in hand").
  price: (input) => ({ sku: input.garmentType ? 'imageTryOn' : 'productHolding', count: 1 }),
  async accept(ctx, user, input) {
    // Another user's presenter or file answers as one that does not exist.
    await presenterFor(ctx, user.userId, input.presenterId);
    await checkPicture(ctx, user.userId, await productOf(ctx, user.userId, input.fileId));
    await checkRoom(ctx, user.userId);
    providerOf(ctx, makerOf(input));
  },
  async run(job) {
    const { ctx, input } = job;
    const source = await presenterFor(ctx, job.userId, input.presenterId);
    const [still] = await runGeneration(job, {
      prepare: async (dir) => ({
        person: (await presenterPicture(ctx, source, dir)).path,
        product: (await fetchPicture(ctx, job.userId, await productOf(ctx, job.userId, input.fileId), dir, 'product')).path,
      }),
      async generate(pictures, generation) {
        const made = await stillOf(ctx, input, pictures, generation);
        // The still is what the presenter will talk from: the face must have come through whole.
        await checkPresenter(made);
        return [made];
      },
      name: () => `${input.name}.png`,
      madeBy: providerOf(ctx, makerOf(input)),
    });
    if (!still) throw new Error(`the ${makerOf(input)} provider made no still`);
    const { gender, languages, voiceId } = source;
    return { presenter: await keepPresenter(ctx, job.userId, { resKey: still.resKey, name: input.name, gender, languages, voiceId }) };
  },
  // The presenter as it is now, with a fresh link to its picture; as it was made, once removed.
  async view(result, ctx) {
    const [row] = await ctx.db.select().from(presenters).where(eq(presenters.id, result.presenter.presenterId));
    return row ? { presenter: await presenterView(ctx, row) } : result;
  },
};
