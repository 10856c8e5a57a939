// composeTalking: a talking-presenter video from its plan (decision "The Avatar tool"), as the Avatar tool makes it:
// the voice spoken a sentence a line, the presenter's clip framed to the shape and held to the voice's length,
// captions a viewer can read, the AI tag, the delivery loudness.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { readText } from '../../../e2e/support/ocr.js';
import {
  composeTalking,
  findFaces,
  locateTools,
  measureLoudness,
  probe,
  runTool,
  type TalkingStage,
  type TalkRequest,
  talkingLines,
} from '../src/index.js';
import { captionEvents } from './captionEvents.js';
import { drawnPortrait, formatTags, makeVideo } from './fixtures.js';

const tools = locateTools();
const dir = mkdtempSync(join(tmpdir(), 'reelsmith-talking-video-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SCRIPT = 'Meet Lumi, the lamp that follows the sun. It charges by day and glows all night. Tap the link to get yours.';

describe('talkingLines', () => {
  it('speaks running text a sentence a line', () => {
    expect(talkingLines(SCRIPT).map((line) => line.segText)).toEqual([
      'Meet Lumi, the lamp that follows the sun.',
      'It charges by day and glows all night.',
      'Tap the link to get yours.',
    ]);
    expect(talkingLines('认识这款台灯。白天充电，晚上发光。').map((line) => line.segText)).toEqual([
      '认识这款台灯。',
      '白天充电，晚上发光。',
    ]);
  });
});

/** A 9:16 preview of SCRIPT in English: each test adds the presenter's `talk`. */
const PLAN = {
  script: SCRIPT,
  language: 'en',
  voiceId: 'en-ava',
  captionId: 'karaoke',
  aspectRatio: '9:16',
  quality: 'preview',
} as const;

describe('composeTalking', () => {
  it('frames the presenter to the shape for the whole voice, captioned, tagged and at the delivery loudness', async () => {
    const asked: TalkRequest[] = [];
    const stages: TalkingStage[] = [];
    const workDir = mkdtempSync(join(dir, 'work-'));
    const talking = await composeTalking(
      {
        ...PLAN,
        async talk(request) {
          asked.push(request);
          // A vendor's clip comes square, at its own size, and a little short of the voice.
          const { duration } = await probe(tools, request.voice);
          return makeVideo(tools, join(workDir, 'vendor.mp4'), { seconds: duration - 0.6, width: 512, height: 512 });
        },
      },
      { workDir, cacheDir: join(dir, 'cache'), tools, progress: (stage) => void stages.push(stage) },
    );
    expect(stages).toEqual(['voice', 'talking', 'render']);
    // The presenter was asked for the frame of the shape, with the three sentences' ends to cut a long track on.
    expect(asked).toHaveLength(1);
    const request = asked[0] as TalkRequest;
    expect([request.width, request.height]).toEqual([540, 960]);
    expect(request.sentenceEnds).toHaveLength(3);
    expect([...request.sentenceEnds].sort((a, b) => a - b)).toEqual(request.sentenceEnds);
    const voiceSeconds = (await probe(tools, request.voice)).duration;
    expect(request.sentenceEnds.at(-1)).toBeLessThanOrEqual(voiceSeconds);

    const probed = await probe(tools, talking.file);
    expect([probed.width, probed.height]).toEqual([540, 960]);
    expect(Math.abs(probed.duration - voiceSeconds)).toBeLessThanOrEqual(0.1);
    expect(talking.seconds).toBeCloseTo(voiceSeconds, 1);
    expect(probed.streams.map((s) => s.type).sort()).toEqual(['audio', 'video']);
    expect(await formatTags(tools, talking.file)).toMatchObject({ comment: 'AI-generated content', ai_generated: 'true' });
    const loudness = await measureLoudness(talking.file, tools);
    expect(Math.abs(loudness.integrated - -14)).toBeLessThanOrEqual(1);

    // The second sentence is captioned while it is said, readable over the presenter.
    const frame = join(workDir, 'middle.png');
    const at = (request.sentenceEnds[0] as number) + ((request.sentenceEnds[1] as number) - (request.sentenceEnds[0] as number)) / 2;
    await runTool(tools.ffmpeg, ['-v', 'error', '-y', '-ss', at.toFixed(2), '-i', talking.file, '-frames:v', '1', frame]);
    const read = (await readText(readFileSync(frame), 'eng')).toLowerCase();
    expect(read).toMatch(/charges|day|glows|night/);
    // The clip ran short: its last frame is held, so the video is picture to the end.
    const last = join(workDir, 'last.png');
    await runTool(tools.ffmpeg, ['-v', 'error', '-y', '-sseof', '-0.1', '-i', talking.file, '-frames:v', '1', last]);
    expect(readFileSync(last).length).toBeGreaterThan(1000);
  }, 120_000);

  it('keeps the captions off the presenter’s face wherever the clip puts it', async () => {
    const workDir = mkdtempSync(join(dir, 'face-'));
    // The presenter low in the frame: the face where captions would otherwise stand, in the lower third.
    const portrait = join(workDir, 'portrait.png');
    await sharp({ create: { width: 600, height: 1066, channels: 3, background: '#3b4656' } })
      .composite([{ input: await drawnPortrait(), top: 400, left: 0 }])
      .png()
      .toFile(portrait);
    const talking = await composeTalking(
      {
        ...PLAN,
        async talk(request) {
          const { duration } = await probe(tools, request.voice);
          const clip = join(workDir, 'vendor.mp4');
          await runTool(tools.ffmpeg, [
            ...['-v', 'error', '-y', '-loop', '1', '-i', portrait, '-t', duration.toFixed(2), '-r', '25'],
            ...['-vf', 'format=yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast', clip],
          ]);
          return clip;
        },
      },
      { workDir, cacheDir: join(dir, 'cache'), tools },
    );
    const [face] = await findFaces(portrait);
    expect(face).toBeDefined();
    const { y, h } = (face as NonNullable<typeof face>).box;
    // The face spans the lower half of the frame; every caption stands wholly above it or below it.
    expect(y).toBeGreaterThan(0.45);
    const words = new Set(talkingLines(SCRIPT).flatMap((line) => line.segText.toLowerCase().split(/\W+/)));
    const shown = captionEvents(readFileSync(join(workDir, 'talking.ass'), 'utf8')).filter((event) =>
      event.text.some((line) =>
        line
          .toLowerCase()
          .split(/\W+/)
          .some((word) => word && words.has(word)),
      ),
    );
    expect(shown.length).toBeGreaterThan(0);
    for (const event of shown) {
      // Anchored at the bottom centre (\an2): the block's foot at y, its lines above.
      const bottom = event.y / talking.height;
      const top = (event.y - event.size * 1.2 * event.text.length) / talking.height;
      expect(
        bottom <= y || top >= y + h,
        `caption ${event.text.join(' / ')} at ${top.toFixed(2)}–${bottom.toFixed(2)} over the face at ${y.toFixed(2)}–${(y + h).toFixed(2)}`,
      ).toBe(true);
    }
  }, 120_000);

  it('refuses a script with no words before speaking anything', async () => {
    const workDir = mkdtempSync(join(dir, 'empty-'));
    let talked = false;
    const plan = {
      ...PLAN,
      script: ' … ',
      talk: async () => {
        talked = true;
        return '';
      },
    };
    await expect(composeTalking(plan, { workDir, cacheDir: join(dir, 'cache'), tools })).rejects.toThrow(RangeError);
    expect(talked).toBe(false);
  });
});
