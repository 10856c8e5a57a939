/**
 * The kinds of scene an ad is made of (decision "The ad engine"), each a module of one shape (kind.ts). A new
 * kind is a new module listed here and a new variant of `TimelineMedia`; nothing else asks what kind a scene is.
 */
import type { FramedSubject } from '../framing.js';
import type { DrawAt, PrepareContext, SceneDrawing, SceneKind, SubjectContext } from './kind.js';
import { type ClipScene, pageVideo } from './pageVideo.js';
import { type PresentedScene, presented } from './presented.js';
import { type PresenterScene, presenter } from './presenter.js';
import { type PhotoScene, productPhoto } from './productPhoto.js';
import type { FrameBox, TimelineMedia, TimelineScene } from './types.js';

/** Every kind by the media it shows; the type makes a new media variant name its kind. */
export const SCENE_KINDS: { [K in TimelineMedia['kind']]: SceneKind<Extract<TimelineMedia, { kind: K }>, SceneSource & { kind: K }> } = {
  image: productPhoto,
  video: pageVideo,
  presenter,
  presented,
};

/** A scene made ready for ffmpeg by its kind. */
export type SceneSource = PhotoScene | ClipScene | PresenterScene | PresentedScene;

/** The kind named `kind`, read through one loose signature (each kind is typed for its own media in the map). */
const kindNamed = (kind: TimelineMedia['kind']) => SCENE_KINDS[kind] as unknown as SceneKind<TimelineMedia, SceneSource>;

/** The kind of scene showing `media`. */
export const kindOf = (media: TimelineMedia): SceneKind<TimelineMedia, SceneSource> => kindNamed(media.kind);

/** Makes `scene` ready for ffmpeg, as its kind does. */
export const prepareScene = (scene: TimelineScene, context: PrepareContext): Promise<SceneSource> =>
  kindOf(scene.media).prepare(scene, context);

/** The inputs and graph drawing a prepared scene, as its kind draws. */
export const drawScene = (source: SceneSource, at: DrawAt): SceneDrawing => kindNamed(source.kind).draw(source, at);

/**
 * Where a scene's subject is in the frame (shares of a `width`×`height` frame, about the middle of the scene's
 * move), for the cards and captions to keep off it; none when its kind has none.
 */
export function sceneSubject(
  scene: TimelineScene,
  aspectRatio: SubjectContext['aspectRatio'],
  frame: SubjectContext['frame'],
  cacheDir: string,
): Promise<FramedSubject | undefined> {
  return kindOf(scene.media).subject(scene, { aspectRatio, frame, cacheDir });
}

/** What of a scene the captions must leave clear (a presenter's inset or face beside the product), if anything. */
export const sceneKeepClear = (scene: TimelineScene, frame: { width: number; height: number }): FrameBox | undefined =>
  kindOf(scene.media).keepClear?.(scene, frame);
