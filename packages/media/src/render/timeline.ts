/**
 * The timeline of a link-to-video ad, planned before anything is drawn: which media each scene shows, for how
 * long, with which motion, and how scenes hand over. Pure (no files, no clock), so previews and the export of
 * the same script plan the same cut, and the plan is unit-tested on its own.
 */

export type AspectRatio = '9:16' | '1:1' | '16:9';
export type VideoLength = 15 | 30 | 45;

/**
 * A product picture or clip; a clip carries its own length so it can be trimmed. A picture's size, when known,
 * chooses its move (see `motionByContent`).
 */
export type TimelineMedia =
  | { kind: 'image'; file: string; width?: number | undefined; height?: number | undefined }
  | { kind: 'video'; file: string; seconds: number };

/** One spoken segment of the script with the real length of its synthesised speech. */
export interface SpeechSegment {
  segId: string | number;
  seconds: number;
}

/** Cheap camera moves over a still: each is a crop window moving across a slightly larger picture. */
export type Motion = 'zoom-in' | 'zoom-out' | 'pan-left' | 'pan-right' | 'pan-up' | 'pan-down' | 'none';

export interface TimelineScene {
  media: TimelineMedia;
  /** The speech segment it illustrates; absent on the closing card. */
  segId?: string | number;
  /** When the scene is fully on screen, in seconds from the start; scenes tile the timeline without gaps. */
  start: number;
  seconds: number;
  motion: Motion;
}

export interface Timeline {
  aspectRatio: AspectRatio;
  /** The total length: exactly the requested video length. */
  seconds: number;
  /** A crossfade that runs over the last `transition` seconds of every scene but the last. */
  transition: number;
  scenes: TimelineScene[];
}

export interface TimelineInput {
  scenes: TimelineMedia[];
  segments: SpeechSegment[];
  videoLength: VideoLength;
  aspectRatio: AspectRatio;
}

/**
 * Stills of unknown size take turns through these, so consecutive scenes never move the same way. One push-in
 * in five: a zoom costs about 20 ms of CPU a frame at 1080×1920 and a pan next to nothing (decision "Smooth
 * motion"), so pans carry the rest.
 */
const STILL_MOTIONS: Motion[] = ['zoom-in', 'pan-right', 'pan-up', 'pan-left', 'pan-down'];
const CROSSFADE = 0.4;
/**
 * A picture twice the frame's width for its height (or twice its height) is panned along its long side rather
 * than pushed into: on a 9:16 frame a 4:3, 16:9 or 2.35:1 photo pans, a 1:1, 4:5 or 3:4 one is pushed into.
 */
const PAN_WHEN_LONGER = 2;

const ASPECT: Record<AspectRatio, number> = { '9:16': 9 / 16, '1:1': 1, '16:9': 16 / 9 };

/**
 * The move a picture's content asks for: a pan along a photo much wider or taller than the frame (its long side
 * is where its content is), a slow push-in on anything close to the frame's shape (a product, or a product on a
 * set). When the scene before was a push-in, a gentle pan along the frame's long side (the still's margin, 12 %
 * of it) instead: two scenes never move alike, and a pan costs next to nothing where a zoom costs about 20 ms of
 * CPU a frame at 1080×1920 (decision "Smooth motion"; pull-outs were dropped for it). Without a size, stills
 * take turns through STILL_MOTIONS.
 */
export function motionByContent(media: { width: number; height: number }, aspectRatio: AspectRatio, previous: Motion | undefined): Motion {
  const shape = media.width / media.height / ASPECT[aspectRatio];
  if (shape >= PAN_WHEN_LONGER) return previous === 'pan-right' ? 'pan-left' : 'pan-right';
  if (shape <= 1 / PAN_WHEN_LONGER) return previous === 'pan-down' ? 'pan-up' : 'pan-down';
  if (previous !== 'zoom-in') return 'zoom-in';
  return aspectRatio === '16:9' ? 'pan-right' : 'pan-up';
}
/** A shortfall up to this long is absorbed by holding the last scene; a longer one gets a closing card. */
const HOLD_LAST_UP_TO = 2.5;
/** No scene shorter than this: a flash of a picture reads as a glitch, not a cut. */
const MIN_SCENE = 0.8;

const round = (s: number) => Math.round(s * 1000) / 1000;

/** The hook first: the first still (the caller orders media by relevance), else the first clip. */
function hookFirst(media: TimelineMedia[]): TimelineMedia[] {
  const hook = media.findIndex((m) => m.kind === 'image');
  if (hook <= 0) return media;
  return [media[hook] as TimelineMedia, ...media.slice(0, hook), ...media.slice(hook + 1)];
}

/**
 * Fits speech durations into `length`, keeping every cut on a segment boundary so pictures change with the
 * voice: what runs past the end is cut, and a segment too short to be a scene extends the one before it.
 */
function fitDurations(segments: SpeechSegment[], length: number): { segId: string | number; seconds: number }[] {
  const fitted: { segId: string | number; seconds: number }[] = [];
  let used = 0;
  for (const { segId, seconds } of segments) {
    const take = Math.min(seconds, length - used);
    const previous = fitted.at(-1);
    if (take < MIN_SCENE && previous) previous.seconds += take;
    else if (take > 0) fitted.push({ segId, seconds: take });
    used += take;
    if (used >= length) break;
  }
  return fitted;
}

/** Plans the scenes of one video; throws when there is no media at all. */
export function planTimeline({ scenes: media, segments, videoLength, aspectRatio }: TimelineInput): Timeline {
  if (media.length === 0) throw new Error('A video needs at least one picture or clip');
  const ordered = hookFirst(media);
  const fitted = fitDurations(segments.length ? segments : [{ segId: 0, seconds: videoLength }], videoLength);
  const spoken = fitted.reduce((sum, s) => sum + s.seconds, 0);
  const shortfall = videoLength - spoken;
  const closing = shortfall > HOLD_LAST_UP_TO;
  if (!closing) (fitted.at(-1) as { seconds: number }).seconds += shortfall;

  let stillIndex = 0;
  let previous: Motion | undefined;
  const motionFor = (m: TimelineMedia): Motion => {
    if (m.kind === 'video') return 'none';
    const { width, height } = m;
    previous =
      width && height
        ? motionByContent({ width, height }, aspectRatio, previous)
        : (STILL_MOTIONS[stillIndex % STILL_MOTIONS.length] as Motion);
    stillIndex++;
    return previous;
  };
  let start = 0;
  const scenes: TimelineScene[] = fitted.map(({ segId, seconds }, i) => {
    const m = ordered[i % ordered.length] as TimelineMedia;
    const scene = { media: m, segId, start: round(start), seconds: round(seconds), motion: motionFor(m) };
    start += seconds;
    return scene;
  });
  if (closing) {
    // The closing card brings back the hook picture: the product is the last thing the viewer sees.
    const m = ordered[0] as TimelineMedia;
    scenes.push({ media: m, start: round(start), seconds: round(videoLength - start), motion: m.kind === 'image' ? 'zoom-out' : 'none' });
  }
  const shortest = Math.min(...scenes.map((s) => s.seconds));
  return { aspectRatio, seconds: videoLength, transition: round(Math.min(CROSSFADE, shortest / 3)), scenes };
}

/** Output frame size for an aspect ratio at a short side of `shortSide` pixels (540 previews, 1080 exports). */
export function frameSize(aspectRatio: AspectRatio, shortSide: number): { width: number; height: number } {
  const long = Math.round((shortSide * 16) / 9 / 2) * 2;
  if (aspectRatio === '9:16') return { width: shortSide, height: long };
  if (aspectRatio === '16:9') return { width: long, height: shortSide };
  return { width: shortSide, height: shortSide };
}
