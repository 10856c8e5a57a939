import { describe, expect, it } from 'vitest';
import { frameSize, planTimeline, type TimelineMedia } from '../src/index.js';

const images = (n: number): TimelineMedia[] => Array.from({ length: n }, (_, i) => ({ kind: 'image', file: `/img/${i}.jpg` }));
const segs = (...seconds: number[]) => seconds.map((s, i) => ({ segId: i + 1, seconds: s }));
const total = (t: { scenes: { seconds: number }[] }) => t.scenes.reduce((sum, s) => sum + s.seconds, 0);

describe('planTimeline', () => {
  it('holds each scene for its segment and fills the length exactly', () => {
    const t = planTimeline({ scenes: images(3), segments: segs(3.2, 4.1, 2.9, 3.5), videoLength: 15, aspectRatio: '9:16' });
    expect(t.seconds).toBe(15);
    expect(total(t)).toBeCloseTo(15, 6);
    expect(t.scenes.map((s) => s.segId)).toEqual([1, 2, 3, 4]);
    expect(t.scenes.slice(0, 3).map((s) => s.seconds)).toEqual([3.2, 4.1, 2.9]);
    // The 1.3 s left over is held on the last scene.
    expect(t.scenes[3]?.seconds).toBeCloseTo(4.8, 6);
  });

  it('cycles images when there are fewer than segments, and every scene has media', () => {
    const t = planTimeline({ scenes: images(2), segments: segs(3, 3, 3, 3, 3), videoLength: 15, aspectRatio: '1:1' });
    expect(t.scenes.map((s) => s.media.file)).toEqual(['/img/0.jpg', '/img/1.jpg', '/img/0.jpg', '/img/1.jpg', '/img/0.jpg']);
  });

  it('tiles the timeline without gaps or overlaps', () => {
    const t = planTimeline({
      scenes: images(7),
      segments: segs(2.3, 3.7, 2.2, 2.9, 3.6, 2.5, 3.0, 2.4, 3.3, 2.8, 3.1, 2.6),
      videoLength: 30,
      aspectRatio: '9:16',
    });
    for (const [i, s] of t.scenes.entries()) {
      const next = t.scenes[i + 1];
      if (next) expect(next.start).toBeCloseTo(s.start + s.seconds, 3);
    }
    expect(total(t)).toBeCloseTo(30, 6);
  });

  it('cuts speech that runs past the end', () => {
    const t = planTimeline({ scenes: images(4), segments: segs(6, 6, 6, 6), videoLength: 15, aspectRatio: '16:9' });
    expect(t.scenes.map((s) => s.seconds)).toEqual([6, 6, 3]);
    expect(total(t)).toBe(15);
  });

  it('adds a closing card with the hook picture when speech is much shorter than the video', () => {
    const t = planTimeline({ scenes: images(3), segments: segs(4, 4, 4), videoLength: 30, aspectRatio: '9:16' });
    const closing = t.scenes.at(-1);
    expect(closing?.segId).toBeUndefined();
    expect(closing?.media.file).toBe('/img/0.jpg');
    expect(closing?.seconds).toBe(18);
    expect(total(t)).toBe(30);
  });

  it('merges a segment too short to be a scene into the one before', () => {
    const t = planTimeline({ scenes: images(3), segments: segs(5, 0.4, 5, 4.6), videoLength: 15, aspectRatio: '9:16' });
    expect(t.scenes.map((s) => s.segId)).toEqual([1, 3, 4]);
    expect(t.scenes[0]?.seconds).toBeCloseTo(5.4, 6);
  });

  it('opens on a still (the hook) and alternates motion on stills; clips do not move', () => {
    const media: TimelineMedia[] = [{ kind: 'video', file: '/clip.mp4', seconds: 4 }, ...images(3)];
    const t = planTimeline({ scenes: media, segments: segs(3, 3, 3, 3, 3), videoLength: 15, aspectRatio: '9:16' });
    expect(t.scenes[0]?.media.kind).toBe('image');
    expect(t.scenes[1]?.media.kind).toBe('video');
    expect(t.scenes[1]?.motion).toBe('none');
    const stillMotions = t.scenes.filter((s) => s.media.kind === 'image').map((s) => s.motion);
    for (let i = 1; i < stillMotions.length; i++) expect(stillMotions[i]).not.toBe(stillMotions[i - 1]);
  });

  it('chooses moves by content: a pan along a wide or tall photo, a push-in on one of about the frame shape', () => {
    const still = (width: number, height: number): TimelineMedia => ({ kind: 'image', file: `/${width}x${height}.jpg`, width, height });
    const media = [still(1200, 1600), still(1080, 460), still(1600, 900), still(1080, 1350), still(1000, 1000), still(300, 1600)];
    const t = planTimeline({ scenes: media, segments: segs(2.5, 2.5, 2.5, 2.5, 2.5, 2.5), videoLength: 15, aspectRatio: '9:16' });
    expect(t.scenes.map((s) => s.motion)).toEqual(['zoom-in', 'pan-right', 'pan-left', 'zoom-in', 'pan-up', 'pan-down']);
    // A 16:9 frame: a 4:5 photo is much taller than it, a 2.35:1 banner about its shape.
    const wide = planTimeline({
      scenes: [still(1080, 1350), still(1080, 460)],
      segments: segs(7.5, 7.5),
      videoLength: 15,
      aspectRatio: '16:9',
    });
    expect(wide.scenes.map((s) => s.motion)).toEqual(['pan-down', 'zoom-in']);
  });

  it('is deterministic and keeps transitions shorter than a third of any scene', () => {
    const input = { scenes: images(5), segments: segs(1, 2.5, 3, 4, 2), videoLength: 15 as const, aspectRatio: '9:16' as const };
    const t = planTimeline(input);
    expect(planTimeline(input)).toEqual(t);
    expect(t.transition).toBeGreaterThan(0);
    for (const s of t.scenes) expect(t.transition).toBeLessThanOrEqual(s.seconds / 3);
  });

  it('works without speech and refuses no media', () => {
    expect(total(planTimeline({ scenes: images(1), segments: [], videoLength: 45, aspectRatio: '9:16' }))).toBe(45);
    expect(() => planTimeline({ scenes: [], segments: segs(3), videoLength: 15, aspectRatio: '9:16' })).toThrow(/at least one/);
  });
});

describe('frameSize', () => {
  it('gives 540p previews and 1080p exports in each shape', () => {
    expect(frameSize('9:16', 540)).toEqual({ width: 540, height: 960 });
    expect(frameSize('1:1', 540)).toEqual({ width: 540, height: 540 });
    expect(frameSize('16:9', 540)).toEqual({ width: 960, height: 540 });
    expect(frameSize('9:16', 1080)).toEqual({ width: 1080, height: 1920 });
    expect(frameSize('16:9', 1080)).toEqual({ width: 1920, height: 1080 });
  });
});
