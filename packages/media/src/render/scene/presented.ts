/**
 * A product scene with the presenter talking over it (decision "Presenter layouts"): in a rounded inset in the lower
 * right corner of the product's picture, or on their half of a screen split with it (the product above or on the
 * left, the presenter below or on the right). The product's half is framed, moved and drawn by the product's own
 * kind at that half's size; the presenter is cropped about the face from the frame-sized portrait or take, so one
 * take serves the full-frame opening and the scenes after it.
 */
import { mkdir, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { safeZone } from '../../captions/safeZone.js';
import { aroundFace } from '../../imaging/faces.js';
import { withMotionMargin } from '../stills.js';
import type { DrawAt, PreparedScene, SceneDrawing, SceneKind } from './kind.js';
import { pageVideo } from './pageVideo.js';
import { boxAbout, drawPresenter, type PresenterSource } from './presenter.js';
import { productPhoto } from './productPhoto.js';
import type { FrameBox, PresentedMedia, ProductMedia, TimelineScene } from './types.js';

/** A box in a frame, in whole, even pixels. */
export interface PixelBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A product scene ready for ffmpeg: what its own kind prepared, and the presenter's take or portrait. */
type ProductSource = Awaited<ReturnType<(typeof productPhoto)['prepare']>> | Awaited<ReturnType<(typeof pageVideo)['prepare']>>;

/** A presented scene made ready: the product at its size, the presenter, where each stands, the inset's edges. */
export interface PresentedScene extends PreparedScene {
  kind: 'presented';
  layout: PresentedMedia['layout'];
  product: ProductSource;
  /** The product's still size (its frame with the room its move needs). */
  productStill: { width: number; height: number };
  presenter: PresenterSource;
  place: { product: PixelBox; presenter: PixelBox };
  /** The inset's rounded shape (grey, white inside) and its white rim, a PNG each: the corner layout's. */
  inset?: { mask: string; rim: string; border: number } | undefined;
}

/** The product kinds a presenter can talk over, by the media they show. */
const PRODUCT_KINDS = { image: productPhoto, video: pageVideo } as const;
const productKind = ({ kind }: { kind: ProductMedia['kind'] }) => PRODUCT_KINDS[kind] as unknown as SceneKind<ProductMedia, ProductSource>;
const productScene = (scene: TimelineScene & { media: PresentedMedia }) => ({ ...scene, media: scene.media.product });

/** The corner inset's width, a share of the frame's: a face a viewer reads at a glance without hiding the product. */
const INSET_WIDTH = { tall: 0.34, square: 0.28, wide: 0.2 } as const;
/** The inset's shape, width over height: a head-and-shoulders portrait. */
const INSET_ASPECT = 3 / 4;

const even = (v: number) => Math.max(2, Math.round(v / 2) * 2);

/** A box given in shares of `part` (pixels of a `frame`), in shares of the whole frame. */
function inFrame(box: FrameBox, part: PixelBox, frame: { width: number; height: number }): FrameBox {
  return {
    x: (part.x + box.x * part.width) / frame.width,
    y: (part.y + box.y * part.height) / frame.height,
    w: (box.w * part.width) / frame.width,
    h: (box.h * part.height) / frame.height,
  };
}

/**
 * Where the product and the presenter stand in a `frame`: a split screen stacks them on a tall frame (product
 * above, where the side cards are) and sets them side by side otherwise (product on the left, under the cards);
 * the corner puts the presenter in the lower right of the safe zone, over the whole-frame product.
 */
export function presenterPlace(layout: PresentedMedia['layout'], frame: { width: number; height: number }) {
  const { width: w, height: h } = frame;
  const tall = h > w * 1.2;
  if (layout === 'split') {
    if (tall) {
      const half = even(h / 2);
      return { product: { x: 0, y: 0, width: w, height: half }, presenter: { x: 0, y: half, width: w, height: h - half } };
    }
    const half = even(w / 2);
    return { product: { x: 0, y: 0, width: half, height: h }, presenter: { x: half, y: 0, width: w - half, height: h } };
  }
  const zone = safeZone(w, h);
  const width = even(w * INSET_WIDTH[tall ? 'tall' : w > h * 1.2 ? 'wide' : 'square']);
  const height = even(width / INSET_ASPECT);
  const x = Math.floor((zone.right * w - width) / 2) * 2;
  const y = Math.floor((zone.bottom * h - height) / 2) * 2;
  return { product: { x: 0, y: 0, width: w, height: h }, presenter: { x, y, width, height } };
}

/** The inset's rounded shape and rim for a `box`-sized inset, made once a size in `cacheDir`. */
async function insetShapes(box: PixelBox, cacheDir: string): Promise<NonNullable<PresentedScene['inset']>> {
  const border = even(box.width * 0.015);
  const radius = Math.round(box.width * 0.1);
  const mask = join(cacheDir, `inset-mask-${box.width}x${box.height}.png`);
  const rim = join(cacheDir, `inset-rim-${box.width}x${box.height}.png`);
  const made = await Promise.all(
    [mask, rim].map((file) =>
      stat(file).then(
        () => true,
        () => false,
      ),
    ),
  );
  if (made.every(Boolean)) return { mask, rim, border };
  await mkdir(cacheDir, { recursive: true });
  const rect = (w: number, h: number, r: number, fill: string, back: string) =>
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="${w}" height="${h}" fill="${back}"/><rect width="${w}" height="${h}" rx="${r}" ry="${r}" fill="${fill}"/></svg>`,
    );
  const write = async (file: string, svg: Buffer, grey: boolean) => {
    const part = `${file}.${process.pid}.part.png`;
    const picture = sharp(svg);
    await (grey ? picture.greyscale() : picture).png().toFile(part);
    await rename(part, file);
  };
  await write(mask, rect(box.width, box.height, radius, 'white', 'black'), true);
  await write(rim, rect(box.width + 2 * border, box.height + 2 * border, radius + border, 'white', 'none'), false);
  return { mask, rim, border };
}

/** The product's frames at its place, the presenter's at theirs, joined into the frame. */
function draw(source: PresentedScene, at: DrawAt): SceneDrawing {
  const { index, lead, frames, frame, output } = at;
  const { product: productAt, presenter: presenterAt } = source.place;
  const product = productKind(source.product).draw(source.product, {
    ...at,
    frame: { ...frame, width: productAt.width, height: productAt.height },
    stillSize: source.productStill,
    output: `[shown${index}]`,
    // The presenter is laid over the product here, so a push's tail is drawn whole, on its own.
    tail: undefined,
  });
  const at2 = index + product.inputs;
  const person = drawPresenter(source.presenter, { index: at2, lead, frames, frame, output: `[person${index}]` }, presenterAt);
  if (source.layout === 'split') {
    const stack = presenterAt.y > 0 ? 'vstack' : 'hstack';
    return {
      input: [...product.input, ...person.input],
      inputs: product.inputs + person.inputs,
      graph: [product.graph, person.graph, `[shown${index}][person${index}]${stack}=inputs=2,setsar=1${output}`].join(';'),
    };
  }
  const inset = source.inset as NonNullable<PresentedScene['inset']>;
  const shape = at2 + person.inputs;
  const { fps } = frame;
  return {
    input: [...product.input, ...person.input, '-loop', '1', '-framerate', String(fps), '-i', inset.mask, '-i', inset.rim],
    inputs: product.inputs + person.inputs + 2,
    graph: [
      product.graph,
      person.graph,
      `[${shape}:v]format=gray,trim=end_frame=${frames}[shape${index}]`,
      `[person${index}][shape${index}]alphamerge[cut${index}]`,
      `[${shape + 1}:v]format=yuva420p[rim${index}]`,
      `[shown${index}][rim${index}]overlay=x=${presenterAt.x - inset.border}:y=${presenterAt.y - inset.border}:format=yuv420:eof_action=repeat[rimmed${index}]`,
      `[rimmed${index}][cut${index}]overlay=x=${presenterAt.x}:y=${presenterAt.y}:format=yuv420:eof_action=repeat,setsar=1${output}`,
    ].join(';'),
  };
}

export const presented: SceneKind<PresentedMedia, PresentedScene> = {
  preparesInTurn: true,
  shots: true,
  opens: false,
  showsProduct: true,
  move: (media, aspectRatio, previous, turn) => productKind(media.product).move?.(media.product, aspectRatio, previous, turn) ?? 'none',
  // The product's own cost, and the presenter's crop, scale and overlay over every frame.
  frameCost: (scene) => productKind(scene.media.product).frameCost(productScene(scene)) + 0.6,
  async prepare(scene, context) {
    const { layout, presenter } = scene.media;
    const place = presenterPlace(layout, context.frame);
    const productFrame = { ...context.frame, width: place.product.width, height: place.product.height };
    const productStill = layout === 'split' ? withMotionMargin(place.product) : context.stillSize;
    const product = await productKind(scene.media.product).prepare(productScene(scene), {
      ...context,
      frame: productFrame,
      stillSize: productStill,
    });
    const inset = layout === 'corner' ? await insetShapes(place.presenter, join(context.cacheDir, 'insets')) : undefined;
    const { file, clip, from, face } = presenter;
    return {
      kind: 'presented',
      layout,
      file: product.file,
      motion: product.motion,
      motionFrames: context.motionFrames,
      product,
      productStill,
      presenter: { file, clip, from, face },
      place,
      inset,
    };
  },
  // The captions keep off the product where it stands; the presenter is an area they must leave (presenterArea).
  async subject(scene, context) {
    const { layout } = scene.media;
    const place = presenterPlace(layout, context.frame);
    const own = { width: place.product.width, height: place.product.height };
    const found = await productKind(scene.media.product).subject(productScene(scene), { ...context, frame: own });
    if (!found || layout === 'corner') return found;
    const box = inFrame(
      { x: found.left, y: found.top, w: found.right - found.left, h: found.bottom - found.top },
      place.product,
      context.frame,
    );
    return { ...found, left: box.x, top: box.y, right: box.x + box.w, bottom: box.y + box.h };
  },
  keepClear: (scene, frame) => presenterArea(scene.media, frame),
  draw,
};

/**
 * What of a presented scene the captions and cards must leave clear, in shares of the frame: the corner's inset, or
 * on a split screen the presenter's face on their half (about it, as aroundFace keeps the mouth clear), leaving
 * them the seam.
 */
export function presenterArea(media: PresentedMedia, frame: { width: number; height: number }): FrameBox | undefined {
  const { presenter: box } = presenterPlace(media.layout, frame);
  if (media.layout === 'corner')
    return { x: box.x / frame.width, y: box.y / frame.height, w: box.width / frame.width, h: box.height / frame.height };
  const { face } = media.presenter;
  if (!face) return undefined;
  // The face in shares of the part of the portrait the half shows, then of the frame.
  const part = boxAbout(face, frame, box);
  const inPart = {
    x: (face.x * frame.width - part.x) / part.width,
    y: (face.y * frame.height - part.y) / part.height,
    w: (face.w * frame.width) / part.width,
    h: (face.h * frame.height) / part.height,
  };
  const inBox = inFrame(inPart, box, frame);
  // On their half only: the seam above it is the captions' place.
  const around = aroundFace(inBox);
  const top = Math.max(around.y, box.y / frame.height);
  return { ...around, y: top, h: Math.min(around.y + around.h, (box.y + box.height) / frame.height) - top };
}
