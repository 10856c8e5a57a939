/**
 * The shape every kind of scene has (decision "The ad engine"): what it needs, how the timeline plans it, what a
 * frame of it costs, how it is made ready and framed, and how it draws. A new kind of scene is one module of this
 * shape, listed in kinds.ts; the timeline, the renderer and the captions ask the kind, never test for it.
 */
import type { BrandLook } from '../../brand/look.js';
import type { MediaTools } from '../../tools.js';
import type { FramedSubject } from '../framing.js';
import type { Look } from '../look.js';
import type { AspectRatio, Frame, FrameBox, Motion, TimelineMedia, TimelineScene } from './types.js';

/** What every kind's prepared scene says, beside the files of its own that its drawing reads. */
export interface PreparedScene {
  kind: TimelineMedia['kind'];
  file: string;
  motion: Motion;
  /** Frames the scene's motion spans in all (its fade-in in the piece before, plus its own piece). */
  motionFrames: number;
}

/** What making a scene ready may use. */
export interface PrepareContext {
  frame: Frame;
  /** The size of a still with the room its move needs (the frame and its motion margin). */
  stillSize: { width: number; height: number };
  motionFrames: number;
  aspectRatio: AspectRatio;
  look: Look;
  brand: BrandLook;
  /** Where what is learnt of a picture or clip is kept between renders. */
  cacheDir: string;
  tools: MediaTools;
}

/** What a kind may make before the timeline is planned: the frame and look it will show in. */
export type AheadContext = Pick<PrepareContext, 'aspectRatio' | 'look' | 'brand' | 'cacheDir'> & {
  frame: { width: number; height: number };
};

/** Where a scene's subject is asked for: the frame it will show in. */
export interface SubjectContext {
  aspectRatio: AspectRatio;
  frame: { width: number; height: number };
  cacheDir: string;
}

/** Where a scene draws: its first input's number, its frames, and the label its last filter writes. */
export interface DrawAt {
  index: number;
  /** Frames of the scene already shown (fading in) before these, where its move continues from. */
  lead: number;
  frames: number;
  frame: Frame;
  stillSize: { width: number; height: number };
  output: string;
  /**
   * The same scene's frames again, further on (`lead` from its start), at a second output: the tail a slide or a
   * whip pushes out while the body passes through untouched. A kind that can draws it from the inputs it opened
   * once (a photo's still decoded and its pan's stack built once, not twice) and says so in `SceneDrawing.tail`.
   */
  tail?: { lead: number; frames: number; output: string } | undefined;
}

/** A scene's ffmpeg inputs and the graph turning them into its frames; `inputs` is how many it opened. */
export interface SceneDrawing {
  input: string[];
  graph: string;
  inputs: number;
  /** Whether the graph also draws the `tail` asked for. */
  tail?: boolean;
}

export interface SceneKind<M extends TimelineMedia, S extends PreparedScene> {
  /**
   * What it needs: whether making it ready runs the subject model, which runs on one thread, so such scenes are
   * made one at a time while the other core encodes.
   */
  preparesInTurn: boolean;
  /** Whether a long slot is cut into shots, each with its own move; a clip is not (each shot would restart it). */
  shots: boolean;
  /** Whether it can open the ad and come back as the end card: the first such media is the hook. */
  opens: boolean;
  /** Whether the product is on screen in it: the offer card and the problem grade are a product scene's. */
  showsProduct: boolean;
  /**
   * Its camera move, given the move of the scene before and how many moving scenes came before (`turn`); a kind
   * without one holds still.
   */
  move?: ((media: M, aspectRatio: AspectRatio, previous: Motion | undefined, turn: number) => Motion) | undefined;
  /** A frame's CPU, relative to a still that does not move: the renderer starts the heaviest pieces first. */
  frameCost(scene: TimelineScene & { media: M }): number;
  /** How it is framed: the files its drawing reads, made (or found in the cache) before its piece runs. */
  prepare(scene: TimelineScene & { media: M }, context: PrepareContext): Promise<S>;
  /**
   * The still it shows (with its move's margin), for a kind that holds one: the cards read from it what stands
   * behind them (decision "Readable cards"). Made as `prepare` makes it, so the render finds it in the cache.
   */
  picture?: ((scene: TimelineScene & { media: M }, context: PrepareContext) => Promise<string>) | undefined;
  /**
   * What of its framing it makes before the timeline is planned, while the voice is spoken (decision "The ad
   * engine", decision "Readable cards"): `prepare` and `picture` then find it in the cache.
   */
  ahead?: ((media: M, context: AheadContext) => Promise<unknown>) | undefined;
  /** Where its subject stands in the frame while it is on screen, for the captions and cards to keep off. */
  subject(scene: TimelineScene & { media: M }, context: SubjectContext): Promise<FramedSubject | undefined>;
  /**
   * What of it the captions must leave clear whatever else they cover (a presenter's inset), in shares of a `frame`
   * frame; a kind without one leaves its subject to them.
   */
  keepClear?: ((scene: TimelineScene & { media: M }, frame: { width: number; height: number }) => FrameBox | undefined) | undefined;
  /** How it draws: `at.frames` frames of it, from input `at.index`. */
  draw(source: S, at: DrawAt): SceneDrawing;
}
