import { describe, expect, it } from 'vitest';
import { panAlong } from '../src/render/scene/productPhoto.js';
import { frameSize, type ProductMedia, planTimeline, type TimelineInput, type TimelineMedia } from '../src/render/timeline.js';
import { TEMPLATE_IDS, TEMPLATES } from '../src/templates/catalogue.js';
import { shownFile } from './fixtures.js';

/** A template that never cuts a scene into shots, so the cuts follow the segments alone. */
const calm = { ...TEMPLATES['minimal-luxury'], maxShot: 60 };
const plan = (input: Omit<TimelineInput, 'template' | 'hasOffer'> & Partial<TimelineInput>) =>
  planTimeline({ template: calm, hasOffer: false, ...input });
const images = (n: number): ProductMedia[] => Array.from({ length: n }, (_, i) => ({ kind: 'image', file: `/img/${i}.jpg` }));
const segs = (...seconds: number[]) => seconds.map((s, i) => ({ segId: i + 1, seconds: s }));
const total = (t: { scenes: { seconds: number }[] }) => t.scenes.reduce((sum, s) => sum + s.seconds, 0);

describe('planTimeline', () => {
  it('holds each scene for its segment, closes on the end card and fills the length exactly', () => {
    const t = plan({ scenes: images(3), segments: segs(3.2, 4.1, 2.9, 3.5), videoLength: 15, aspectRatio: '9:16' });
    expect(t.seconds).toBe(15);
    expect(total(t)).toBeCloseTo(15, 6);
    expect(t.scenes.map((s) => s.segId)).toEqual([1, 2, 3, 4, undefined]);
    // The fourth segment's scene runs up to the end card, which takes the last 2.5 s (the voice goes on over it).
    expect(t.scenes.map((s) => s.seconds)).toEqual([3.2, 4.1, 2.9, 2.3, 2.5]);
    expect(t.scenes.map((s) => s.role)).toEqual(['hook', 'feature', 'feature', 'feature', 'end']);
  });

  it('cycles images when there are fewer than segments, and every scene has media', () => {
    const t = plan({ scenes: images(2), segments: segs(3, 3, 3, 3, 3), videoLength: 15, aspectRatio: '1:1' });
    expect(t.scenes.map((s) => shownFile(s.media))).toEqual(['/img/0.jpg', '/img/1.jpg', '/img/0.jpg', '/img/1.jpg', '/img/0.jpg']);
  });

  it('tiles the timeline without gaps or overlaps', () => {
    const t = plan({
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
    const t = plan({ scenes: images(4), segments: segs(6, 6, 6, 6), videoLength: 15, aspectRatio: '16:9' });
    // 12.5 s before the end card: the third segment's 0.5 s is too short a scene and extends the second.
    expect(t.scenes.map((s) => s.seconds)).toEqual([6, 6.5, 2.5]);
    expect(total(t)).toBe(15);
  });

  it('fills a long silence with more pictures and ends on the end card with the hook picture', () => {
    const t = plan({ scenes: images(3), segments: segs(4, 4, 4), videoLength: 30, aspectRatio: '9:16' });
    const end = t.scenes.at(-1);
    expect(end?.role).toBe('end');
    expect(end?.segId).toBeUndefined();
    expect(end && shownFile(end.media)).toBe('/img/0.jpg');
    expect(end?.seconds).toBe(3);
    // 15 s without speech between the voice and the end card: five more scenes of about 3 s, not one long hold.
    const fills = t.scenes.filter((s) => s.segId === undefined && s.role !== 'end');
    expect(fills).toHaveLength(5);
    for (const s of fills) expect(s.seconds).toBeCloseTo(3, 6);
    expect(total(t)).toBe(30);
  });

  it('merges a segment too short to be a scene into the one before', () => {
    const t = plan({ scenes: images(3), segments: segs(5, 0.4, 5, 4.6), videoLength: 15, aspectRatio: '9:16' });
    expect(t.scenes.map((s) => s.segId)).toEqual([1, 3, 4, undefined]);
    expect(t.scenes[0]?.seconds).toBeCloseTo(5.4, 6);
  });

  it('opens on a still (the hook) and alternates motion on stills; clips do not move', () => {
    const media: ProductMedia[] = [{ kind: 'video', file: '/clip.mp4', seconds: 4 }, ...images(3)];
    const t = plan({ scenes: media, segments: segs(3, 3, 3, 3, 3), videoLength: 15, aspectRatio: '9:16' });
    expect(t.scenes[0]?.media.kind).toBe('image');
    expect(t.scenes[1]?.media.kind).toBe('video');
    expect(t.scenes[1]?.motion).toBe('none');
    const stillMotions = t.scenes.filter((s) => s.media.kind === 'image').map((s) => s.motion);
    for (let i = 1; i < stillMotions.length; i++) expect(stillMotions[i]).not.toBe(stillMotions[i - 1]);
  });

  it('chooses moves by content: a pan along a wide or tall photo, a push-in on one of about the frame shape', () => {
    const still = (width: number, height: number): ProductMedia => ({ kind: 'image', file: `/${width}x${height}.jpg`, width, height });
    const media = [still(1200, 1600), still(1080, 460), still(1600, 900), still(1080, 1350), still(1000, 1000), still(300, 1600)];
    const t = plan({ scenes: media, segments: segs(2.5, 2.5, 2.5, 2.5, 2.5, 2.5), videoLength: 15, aspectRatio: '9:16' });
    expect(t.scenes.slice(0, 5).map((s) => s.motion)).toEqual(['zoom-in', 'pan-right', 'pan-left', 'zoom-in', 'pan-up']);
    // A 16:9 frame: a 4:5 photo is much taller than it, a 2.35:1 banner about its shape.
    const wide = plan({
      scenes: [still(1080, 1350), still(1080, 460)],
      segments: segs(6, 6.5),
      videoLength: 15,
      aspectRatio: '16:9',
    });
    expect(wide.scenes.map((s) => s.motion)).toEqual(['pan-down', 'zoom-in', 'pan-down']);
  });

  it('pans along a wide photo as far as its length allows at a readable speed, and keeps other moves to the margin', () => {
    const still = (width: number, height: number): ProductMedia => ({ kind: 'image', file: `/${width}x${height}.jpg`, width, height });
    const scene = (media: TimelineMedia, motion: 'pan-right' | 'pan-up' | 'zoom-in', seconds = 3, role: 'feature' | 'end' = 'feature') => ({
      media,
      motion,
      seconds,
      role,
    });
    // A 16:9 photo in a 9:16 frame: 0.15 frame widths a second, 0.45 more for 3 s.
    expect(panAlong(scene(still(1600, 900), 'pan-right'), '9:16', 1.12)).toBeCloseTo(0.45, 6);
    // A long scene goes no farther than 90 % of the photo's length: a 2:1 photo at 9:16 is 3.56 frames wide.
    expect(panAlong(scene(still(1600, 800), 'pan-right', 30), '9:16', 1.12)).toBeCloseTo(0.9 * (2 / (9 / 16)) - 1.12, 6);
    // A photo about the frame's shape, a move across the photo's short side, a push-in, the end card: the margin.
    expect(panAlong(scene(still(1080, 1350), 'pan-up'), '9:16', 1.12)).toBe(0);
    expect(panAlong(scene(still(1600, 900), 'pan-up'), '9:16', 1.12)).toBe(0);
    expect(panAlong(scene(still(1600, 900), 'zoom-in'), '9:16', 1.12)).toBe(0);
    expect(panAlong(scene(still(1600, 900), 'pan-right', 3, 'end'), '9:16', 1.12)).toBe(0);
    // Without a known size: the margin.
    expect(panAlong(scene({ kind: 'image', file: '/x.jpg' }, 'pan-right'), '9:16', 1.12)).toBe(0);
  });

  it('is deterministic and keeps transitions shorter than a third of any scene', () => {
    const input = { scenes: images(5), segments: segs(1, 2.5, 3, 4, 2), videoLength: 15 as const, aspectRatio: '9:16' as const };
    const t = plan(input);
    expect(plan(input)).toEqual(t);
    expect(t.transition).toBeGreaterThan(0);
    for (const s of t.scenes) expect(t.transition).toBeLessThanOrEqual(s.seconds / 3);
  });

  it('works without speech and refuses no media', () => {
    expect(total(plan({ scenes: images(1), segments: [], videoLength: 45, aspectRatio: '9:16' }))).toBe(45);
    expect(() => plan({ scenes: [], segments: segs(3), videoLength: 15, aspectRatio: '9:16' })).toThrow(/at least one/);
  });
});

describe('planTimeline with a presenter on camera', () => {
  const presenter = { kind: 'presenter', file: '/presenter.png' } as const;
  const kinds = (t: { scenes: { media: TimelineMedia }[] }) => t.scenes.map((s) => s.media.kind);

  it('gives the presenter the opening line and the call to action, the product the lines between and the end card', () => {
    const t = plan({ scenes: images(2), segments: segs(3.2, 4.1, 2.9, 2), videoLength: 15, aspectRatio: '9:16', presenter });
    expect(kinds(t)).toEqual(['presenter', 'image', 'image', 'presenter', 'image']);
    expect(t.scenes.map((s) => s.segId)).toEqual([1, 2, 3, 4, undefined]);
    // The product pictures take turns from the first, which the end card brings back.
    expect(t.scenes.map((s) => shownFile(s.media))).toEqual(['/presenter.png', '/img/0.jpg', '/img/1.jpg', '/presenter.png', '/img/0.jpg']);
    expect(t.scenes[0]?.role).toBe('hook');
    expect(total(t)).toBeCloseTo(15, 6);
  });

  it('keeps the presenter to the opening when no product scene would stand between them and the call to action', () => {
    expect(kinds(plan({ scenes: images(1), segments: segs(5, 6), videoLength: 15, aspectRatio: '9:16', presenter }))).toEqual([
      'presenter',
      'image',
      'image',
    ]);
  });

  it('never puts the offer card or the problem grade on the presenter', () => {
    const question = { ...calm, hook: 'question' as const, offer: 'early' as const };
    const t = planTimeline({
      scenes: images(3),
      segments: segs(3, 1.6, 3, 3),
      videoLength: 15,
      aspectRatio: '9:16',
      template: question,
      hasOffer: true,
      presenter,
    });
    const offer = t.scenes.find((s) => s.role === 'offer');
    expect(offer?.media.kind).toBe('image');
    expect(t.scenes.every((s) => s.grade === undefined)).toBe(true);
  });
});

describe('planTimeline with the presenter in a corner or beside the product', () => {
  const presenter = { kind: 'presenter', file: '/presenter.png' } as const;

  for (const layout of ['corner', 'split'] as const) {
    it(`${layout}: the presenter opens full-frame, then talks ${layout === 'corner' ? 'over' : 'beside'} every product scene up to the end card`, () => {
      const t = plan({
        scenes: images(2),
        segments: segs(3.2, 4.1, 2.9, 2),
        videoLength: 15,
        aspectRatio: '9:16',
        presenter,
        presenterLayout: layout,
      });
      expect(t.scenes.map((s) => s.media.kind)).toEqual(['presenter', 'presented', 'presented', 'presented', 'image']);
      for (const s of t.scenes.slice(1, -1)) expect(s.media).toMatchObject({ kind: 'presented', layout, presenter });
      // The product's pictures take their turns under the presenter; the end card is the product's alone.
      expect(t.scenes.map((s) => shownFile(s.media))).toEqual(['/presenter.png', '/img/0.jpg', '/img/1.jpg', '/img/0.jpg', '/img/0.jpg']);
      expect(total(t)).toBeCloseTo(15, 6);
    });
  }

  it("takes the template's layout when none is chosen, and the chosen one over it", () => {
    const input = {
      scenes: images(2),
      segments: segs(3, 3, 3, 3),
      videoLength: 15 as const,
      aspectRatio: '9:16' as const,
      presenter,
      hasOffer: false,
    };
    const kinds = (t: { scenes: { media: TimelineMedia }[] }) => t.scenes.map((s) => s.media.kind);
    expect(TEMPLATES['bold-ugc'].presenter).toBe('corner');
    const ugc = planTimeline({ ...input, template: TEMPLATES['bold-ugc'] });
    expect(
      ugc.scenes.filter((s) => s.media.kind === 'presented').every((s) => s.media.kind === 'presented' && s.media.layout === 'corner'),
    ).toBe(true);
    expect(kinds(planTimeline({ ...input, template: TEMPLATES['bold-ugc'], presenterLayout: 'bookends' }))).not.toContain('presented');
    expect(kinds(planTimeline({ ...input, template: TEMPLATES['clean-studio'] }))).not.toContain('presented');
  });

  it('puts the offer card on a product scene the presenter talks over', () => {
    const t = plan({
      scenes: images(3),
      segments: segs(3, 3, 3, 3),
      videoLength: 15,
      aspectRatio: '9:16',
      presenter,
      presenterLayout: 'split',
      hasOffer: true,
    });
    expect(t.scenes.find((s) => s.role === 'offer')?.media.kind).toBe('presented');
  });
});

describe('each template plans its own ad', () => {
  const input = { scenes: images(4), segments: segs(3.4, 3.1, 3.6, 2.9, 2.6), videoLength: 15 as const, aspectRatio: '9:16' as const };

  for (const id of TEMPLATE_IDS) {
    const template = TEMPLATES[id];
    it(`${id}: a hook first, an offer card when there is a price, the end card on the hook picture, its own hand-over`, () => {
      const t = planTimeline({ ...input, template, hasOffer: true });
      expect(t.look.id).toBe(id);
      expect(t.transitionKind).toBe(template.transition.kind);
      expect(t.transition).toBe(template.transition.kind === 'cut' ? 0 : template.transition.seconds);
      expect(total(t)).toBeCloseTo(15, 6);
      const roles = t.scenes.map((s) => s.role);
      expect(roles[0]).toBe('hook');
      expect(roles.at(-1)).toBe('end');
      expect(shownFile(t.scenes.at(-1)?.media as TimelineMedia)).toBe('/img/0.jpg');
      expect(roles.filter((r) => r === 'offer')).toHaveLength(1);
      const offer = t.scenes.find((s) => s.role === 'offer');
      expect(offer?.seconds).toBeGreaterThanOrEqual(1.5);
      // The Sale template shows the price early, the others just before the end card (or the nearest scene
      // long enough to read it, among a fast template's short shots).
      const at = roles.indexOf('offer');
      if (template.offer === 'early') expect(at).toBeLessThanOrEqual(2);
      else expect(at).toBeGreaterThanOrEqual(roles.length - 4);
      // No shot outlasts the template's longest (the end card has its own length).
      for (const s of t.scenes.slice(0, -1)) expect(s.seconds).toBeLessThanOrEqual(template.maxShot + 1e-6);
      expect(t.scenes[0]?.grade).toBe(template.hook === 'question' ? 'problem' : undefined);
      const none = planTimeline({ ...input, template, hasOffer: false });
      expect(none.scenes.some((s) => s.role === 'offer')).toBe(false);
    });
  }

  it('cuts Bold UGC into fast shots where Minimal luxury holds a scene', () => {
    const fast = planTimeline({ ...input, template: TEMPLATES['bold-ugc'], hasOffer: false });
    const slow = planTimeline({ ...input, template: TEMPLATES['minimal-luxury'], hasOffer: false });
    expect(fast.scenes.length).toBeGreaterThanOrEqual(slow.scenes.length + 4);
    // Shots of one segment show its picture, each moving its own way.
    const first = fast.scenes.filter((s) => s.segId === 1);
    expect(first.length).toBeGreaterThan(1);
    expect(new Set(first.map((s) => shownFile(s.media))).size).toBe(1);
    for (let i = 1; i < first.length; i++) expect(first[i]?.motion).not.toBe(first[i - 1]?.motion);
  });

  it('keeps the templates visibly apart: no two share grade, hand-over and type', () => {
    const looks = TEMPLATE_IDS.map((id) => {
      const t = TEMPLATES[id];
      return JSON.stringify([t.grade, t.transition.kind, t.type.font, t.type.uppercase, t.hook, t.set]);
    });
    expect(new Set(looks).size).toBe(TEMPLATE_IDS.length);
  });
});

describe('planTimeline on the beat', () => {
  /** A track's beats: quarter notes at `bpm` from the start, as musicBeats gives them. */
  const grid = (bpm: number, seconds: number) => Array.from({ length: Math.ceil((seconds * bpm) / 60) }, (_, i) => (i * 60) / bpm);
  const offBeat = (at: number, beats: number[]) => Math.min(...beats.map((b) => Math.abs(b - at)));
  const cuts = (t: { scenes: { start: number }[] }) => t.scenes.slice(1).map((s) => s.start);

  const cases = [
    { bpm: 112, length: 15, segments: segs(3.2, 4.1, 2.9, 3.5) },
    { bpm: 84, length: 30, segments: segs(2.3, 3.7, 2.2, 2.9, 3.6, 2.5, 3.0, 2.4) },
    { bpm: 128, length: 45, segments: segs(4, 4, 4) },
    { bpm: 78, length: 15, segments: segs(1.9, 2.2, 3.1, 2.4, 2.6) },
  ] as const;
  for (const { bpm, length, segments } of cases) {
    for (const id of ['minimal-luxury', 'bold-ugc'] as const) {
      it(`${id} at ${bpm} bpm, ${length} s: every cut within 40 ms of a beat, the length and the end card kept`, () => {
        const beats = grid(bpm, length);
        const input: TimelineInput = {
          scenes: images(4),
          segments: [...segments],
          videoLength: length,
          aspectRatio: '9:16',
          template: TEMPLATES[id],
          hasOffer: true,
        };
        const plain = planTimeline(input);
        const t = planTimeline({ ...input, beats });
        expect(total(t)).toBeCloseTo(length, 6);
        expect(t.seconds).toBe(length);
        for (const cut of cuts(t)) expect(offBeat(cut, beats)).toBeLessThanOrEqual(0.04);
        // Without the beats the cuts fall anywhere: the test would notice cuts left where they were.
        expect(cuts(plain).some((cut) => offBeat(cut, beats) > 0.04)).toBe(true);
        for (const s of t.scenes) expect(s.seconds).toBeGreaterThanOrEqual(0.8 - 1e-6);
        const end = t.scenes.at(-1);
        expect(end?.role).toBe('end');
        // The end card is never shorter, at most a beat longer.
        const hold = plain.scenes.at(-1)?.seconds ?? 0;
        expect(end?.seconds).toBeGreaterThanOrEqual(hold - 1e-6);
        expect(end?.seconds).toBeLessThan(hold + 60 / bpm + 1e-6);
        // Each segment's scenes start within half a beat of where the segment starts (a scene follows its voice).
        for (const segId of new Set(plain.scenes.map((s) => s.segId).filter((s) => s !== undefined))) {
          const was = plain.scenes.find((s) => s.segId === segId)?.start ?? 0;
          const now = t.scenes.find((s) => s.segId === segId)?.start ?? 0;
          expect(Math.abs(now - was)).toBeLessThanOrEqual(30 / bpm + 1e-6);
        }
      });
    }
  }

  it('keeps every scene long enough when short segments meet a slow beat: a cut moves further, or a scene joins the one before', () => {
    // 78 bpm is 0.77 s a beat: a scene needs two beats to last 0.8 s, and segments of 0.85-1.7 s cannot all keep a scene.
    const beats = grid(78, 15);
    const t = plan({ scenes: images(3), segments: segs(0.85, 0.85, 0.85, 1.7, 8), videoLength: 15, aspectRatio: '9:16', beats });
    for (const s of t.scenes) expect(s.seconds).toBeGreaterThanOrEqual(0.8);
    for (const cut of cuts(t)) expect(offBeat(cut, beats)).toBeLessThanOrEqual(0.04);
    expect(t.scenes.map((s) => s.segId)).toContain(5);
    expect(total(t)).toBeCloseTo(15, 6);
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
