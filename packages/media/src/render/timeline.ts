/**
 * The timeline of a link-to-video ad, planned before anything is drawn: which media each scene shows, for how
 * long, with which motion, and how scenes hand over. Pure (no files, no clock), so previews and the export of
 * the same script plan the same cut, and the plan is unit-tested on its own.
 */

import { beatAtOrBefore, shotsOnBeats, snapCuts } from './beatCuts.js';
import type { Look, TransitionKind } from './look.js';
import { kindOf } from './scene/kinds.js';
import type {
  AspectRatio,
  Motion,
  PresenterLayout,
  PresenterMedia,
  ProductMedia,
  SceneRole,
  TimelineMedia,
  TimelineScene,
  VideoLength,
} from './scene/types.js';

export type { AspectRatio, Motion, ProductMedia, SceneRole, TimelineMedia, TimelineScene, VideoLength } from './scene/types.js';

/** One spoken segment of the script with the real length of its synthesised speech. */
export interface SpeechSegment {
  segId: string | number;
  seconds: number;
}

export interface Timeline {
  aspectRatio: AspectRatio;
  /** The total length: exactly the requested video length. */
  seconds: number;
  /** The look the ad is made in: its template (the renderer grades, sets and closes the scenes by it). */
  look: Look;
  /** The hand-over that runs over the last `transition` seconds of every scene but the last (none for a cut). */
  transition: number;
  transitionKind: TransitionKind;
  scenes: TimelineScene[];
}

export interface TimelineInput {
  /** The product's pictures and clips, the most relevant first. */
  scenes: ProductMedia[];
  segments: SpeechSegment[];
  videoLength: VideoLength;
  aspectRatio: AspectRatio;
  template: Look;
  /** Whether the page gave a price: then one scene is the offer card. */
  hasOffer: boolean;
  /**
   * The music's beats in seconds (musicBeats): when given, every cut lands on one. A scene then starts and ends
   * within half a beat of its segment (further only where a scene would be too short), the end card starts on
   * the last beat before its usual start (so it is never shorter), and the total length stays the video's.
   */
  beats?: readonly number[] | undefined;
  /**
   * The presenter on camera, when the ad has one (decision "Presenter in link to video"): full-frame for the opening
   * line, then as `presenterLayout` says (decision "Presenter layouts"; the template's when absent): full-frame
   * again for the call to action with the product's pictures between, or over or beside every product scene to
   * the end card.
   */
  presenter?: PresenterMedia | undefined;
  presenterLayout?: PresenterLayout | undefined;
}

/** A shortfall up to this long is absorbed by holding the last scene; a longer one gets more scenes. */
const HOLD_LAST_UP_TO = 2.5;
/** No scene shorter than this: a flash of a picture reads as a glitch, not a cut. */
const MIN_SCENE = 0.8;
/** The end card's length: long enough to read the call to action, the name and the price. */
const END_CARD: Record<VideoLength, number> = { 15: 2.5, 30: 3, 45: 3 };
/** The offer card stays long enough to read a price and the struck one. */
const MIN_OFFER = 1.5;
/** Shots added to fill a long silence run about this long. */
const FILL_SHOT = 3;

const round = (s: number) => Math.round(s * 1000) / 1000;

/** The hook first: the first media of a kind that opens (the caller orders media by relevance), else the first. */
function hookFirst(media: ProductMedia[]): ProductMedia[] {
  const hook = media.findIndex((m) => kindOf(m).opens);
  if (hook <= 0) return media;
  return [media[hook] as ProductMedia, ...media.slice(0, hook), ...media.slice(hook + 1)];
}

/**
 * Fits speech durations into `length`, keeping every cut on a segment boundary so pictures change with the
 * voice: what runs past the end is cut, and a segment too short to be a scene extends the one before it.
 */
function fitDurations(segments: SpeechSegment[], length: number): Fitted[] {
  const fitted: Fitted[] = [];
  let used = 0;
  for (const { segId, seconds } of segments) {
    const take = Math.min(seconds, length - used);
    const previous = fitted.at(-1);
    if (take < MIN_SCENE && previous) previous.seconds += take;
    else if (take > 0) fitted.push({ segId, seconds: take });
    used += take;
    if (used >= length - 1e-9) break;
  }
  // Speech much shorter than the video: the last scene holds a little, then more pictures follow.
  const shortfall = length - used;
  const last = fitted.at(-1);
  if (last && shortfall <= HOLD_LAST_UP_TO) last.seconds += shortfall;
  else {
    const fills = Math.max(1, Math.round(shortfall / FILL_SHOT));
    for (let i = 0; i < fills; i++) fitted.push({ seconds: shortfall / fills });
  }
  return fitted;
}

/** A scene longer than the template's longest shot becomes shots of its picture, each with its own move. */
function intoShots(seconds: number, maxShot: number): number[] {
  const shots = Math.max(1, Math.min(Math.ceil(seconds / maxShot - 1e-9), Math.floor(seconds / MIN_SCENE)));
  return Array.from({ length: shots }, () => seconds / shots);
}

/**
 * The scene that carries the offer card: the template's place for it, else the nearest long enough, among the
 * scenes showing the product.
 */
function offerScene(scenes: { media: TimelineMedia; seconds: number; role: SceneRole }[], where: Look['offer']): number | undefined {
  const candidates = scenes
    .map((s, i) => ({ i, s }))
    .filter(({ s }) => s.role === 'feature' && s.seconds >= MIN_OFFER && kindOf(s.media).showsProduct);
  const target = where === 'early' ? 1 : scenes.length - 2;
  candidates.sort((a, b) => Math.abs(a.i - target) - Math.abs(b.i - target));
  return candidates[0]?.i;
}

type Fitted = { segId?: string | number; seconds: number };

/**
 * The fitted scenes the presenter says (decision "Presenter in link to video"): the opening line and the last one
 * spoken, the call to action, when a product scene stands between them; the opening alone otherwise.
 */
function presenterSays(fitted: Fitted[]): Set<number> {
  const last = fitted.findLastIndex((scene) => scene.segId !== undefined);
  return new Set(last > 1 ? [0, last] : [0]);
}

/**
 * What each spoken scene shows, given the product's next picture: the presenter full-frame where they say the line,
 * the picture elsewhere, with the presenter over or beside it in a corner or split layout.
 */
function spokenMedia(
  presenter: PresenterMedia | undefined,
  layout: PresenterLayout,
  fitted: Fitted[],
): (i: number, product: () => ProductMedia) => TimelineMedia {
  if (!presenter) return (_, product) => product();
  if (layout === 'bookends') {
    const onCamera = presenterSays(fitted);
    return (i, product) => (onCamera.has(i) ? presenter : product());
  }
  return (i, product) => (i === 0 ? presenter : { kind: 'presented', layout, product: product(), presenter });
}

/**
 * The fitted scenes with their cuts moved onto the beats, and the body's new end (the end card's start, the last
 * beat before it). Where the beats cannot hold every scene at its least length (short segments at a slow tempo),
 * the shortest scene joins the one before it, as fitDurations does with a segment too short to be a scene.
 */
function onBeats(fitted: Fitted[], beats: number[], body: number): { fitted: Fitted[]; body: number } | undefined {
  const end = beatAtOrBefore(body, beats);
  if (end === undefined || end < MIN_SCENE) return undefined;
  let scenes = fitted;
  for (;;) {
    const cuts: number[] = [];
    let at = 0;
    for (const { seconds } of scenes.slice(0, -1)) {
      at += seconds;
      cuts.push(at);
    }
    const snapped = snapCuts(cuts, beats, 0, end, MIN_SCENE);
    if (snapped) {
      const bounds = [0, ...snapped, end];
      return { fitted: scenes.map((scene, i) => ({ ...scene, seconds: (bounds[i + 1] as number) - (bounds[i] as number) })), body: end };
    }
    const shortest = scenes.reduce((min, scene, i) => (scene.seconds < (scenes[min] as Fitted).seconds ? i : min), 0);
    const into = shortest === 0 ? 1 : shortest - 1;
    scenes = scenes
      .map((scene, i) => (i === into ? { ...scene, seconds: scene.seconds + (scenes[shortest] as Fitted).seconds } : scene))
      .filter((_, i) => i !== shortest);
  }
}

/**
 * Plans the scenes of one video in its template; throws when there is no media at all. The voice sets the cuts
 * (a scene per spoken segment, split into the template's shots), the hook opens, the offer card takes a scene
 * when the page gave a price, and the end card closes on the hook picture: decision "Ad templates".
 */
export function planTimeline({
  scenes: media,
  segments,
  videoLength,
  aspectRatio,
  template,
  hasOffer,
  beats,
  presenter,
  presenterLayout = template.presenter,
}: TimelineInput): Timeline {
  if (media.length === 0) throw new Error('A video needs at least one picture or clip');
  const ordered = hookFirst(media);
  const fullBody = videoLength - END_CARD[videoLength];
  const spoken = fitDurations(segments.length ? segments : [{ segId: 0, seconds: fullBody }], fullBody);
  const grid = beats?.length ? [...beats] : undefined;
  const snapped = grid && onBeats(spoken, grid, fullBody);
  const fitted = snapped?.fitted ?? spoken;
  const endSeconds = videoLength - (snapped?.body ?? fullBody);

  // Each kind moves its own way, taking turns with the moving scenes before it; a kind without a move holds still.
  let turn = 0;
  let previous: Motion | undefined;
  const motionFor = (m: TimelineMedia): Motion => {
    const { move } = kindOf(m);
    if (!move) return 'none';
    previous = move(m, aspectRatio, previous, turn++);
    return previous;
  };
  const planned: Omit<TimelineScene, 'start'>[] = [];
  let sceneStart = 0;
  let shown = 0;
  const product = () => ordered[shown++ % ordered.length] as ProductMedia;
  const mediaOf = spokenMedia(presenter, presenterLayout, fitted);
  for (const [i, { segId, seconds }] of fitted.entries()) {
    const m = mediaOf(i, product);
    // A kind may refuse to be cut into shots (a clip: each shot would restart it). On the beat, shots cut on beats too.
    const shots = !kindOf(m).shots
      ? [seconds]
      : snapped && grid
        ? shotsOnBeats(sceneStart, seconds, grid, template.maxShot, MIN_SCENE)
        : intoShots(seconds, template.maxShot);
    for (const shot of shots) planned.push({ media: m, segId, seconds: shot, motion: motionFor(m), role: 'feature' });
    sceneStart += seconds;
  }
  (planned[0] as TimelineScene).role = 'hook';
  // The problem grade greys the product before it is shown solving it; a presenter asking the question is not greyed.
  if (template.hook === 'question' && kindOf((planned[0] as TimelineScene).media).showsProduct)
    (planned[0] as TimelineScene).grade = 'problem';
  // The end card brings back the hook picture: the product is the last thing the viewer sees.
  const hook = ordered[0] as ProductMedia;
  planned.push({ media: hook, seconds: endSeconds, motion: motionFor(hook), role: 'end' });
  if (hasOffer) {
    const offer = offerScene(planned, template.offer);
    if (offer !== undefined) (planned[offer] as TimelineScene).role = 'offer';
  }
  let start = 0;
  const scenes = planned.map((scene) => {
    // Each length is the difference of rounded starts, so the scenes tile the timeline to the millisecond.
    const placed = { ...scene, start: round(start), seconds: round(round(start + scene.seconds) - round(start)) };
    start += scene.seconds;
    return placed;
  });
  // Rounding each length to the millisecond must not move the end: the last scene ends on the video's length.
  const last = scenes.at(-1) as TimelineScene;
  last.seconds = round(videoLength - last.start);
  const shortest = Math.min(...scenes.map((s) => s.seconds));
  const { kind, seconds } = template.transition;
  return {
    aspectRatio,
    seconds: videoLength,
    look: template,
    transition: kind === 'cut' ? 0 : round(Math.min(seconds, shortest / 3)),
    transitionKind: kind,
    scenes,
  };
}

/** Output frame size for an aspect ratio at a short side of `shortSide` pixels (540 previews, 1080 exports). */
export function frameSize(aspectRatio: AspectRatio, shortSide: number): { width: number; height: number } {
  const long = Math.round((shortSide * 16) / 9 / 2) * 2;
  if (aspectRatio === '9:16') return { width: shortSide, height: long };
  if (aspectRatio === '16:9') return { width: long, height: shortSide };
  return { width: shortSide, height: shortSide };
}
