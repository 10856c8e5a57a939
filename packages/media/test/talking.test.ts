import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cutSpeech, joinTalkingClips, locateTools, probe, talkingSpans } from '../src/index.js';
import { makeVideo } from './fixtures.js';

const work = mkdtempSync(join(tmpdir(), 'reelsmith-talking-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const tools = locateTools();

describe('talkingSpans', () => {
  it('keeps a track within the limit whole', () => {
    expect(talkingSpans(24.5, [6, 12.2, 20], 30)).toEqual([{ start: 0, end: 24.5 }]);
  });

  it('cuts on the last sentence end that keeps each span within the limit', () => {
    const spans = talkingSpans(70, [8, 19.5, 28, 33, 47.9, 58, 66], 30);
    expect(spans).toEqual([
      { start: 0, end: 28 },
      { start: 28, end: 58 },
      { start: 58, end: 70 },
    ]);
    for (const { start, end } of spans) expect(end - start).toBeLessThanOrEqual(30);
  });

  it('cuts at the limit where no sentence ends in time, and never leaves a sliver at the end', () => {
    expect(talkingSpans(65, [], 30)).toEqual([
      { start: 0, end: 30 },
      { start: 30, end: 60 },
      { start: 60, end: 65 },
    ]);
    // A sentence ending half a second before the end is not a span of its own.
    expect(talkingSpans(40, [20, 39.5], 30)).toEqual([
      { start: 0, end: 20 },
      { start: 20, end: 40 },
    ]);
  });

  it('refuses an empty track or a limit that cannot hold speech', () => {
    expect(() => talkingSpans(0, [], 30)).toThrow(RangeError);
    expect(() => talkingSpans(10, [], 0.5)).toThrow(RangeError);
  });
});

describe('cutting the voice and joining the clips', () => {
  it('joins clips of the wrong lengths into one video exactly as long as the voice, at the frame asked', { timeout: 60_000 }, async () => {
    const voice = join(work, 'voice.wav');
    execFileSync(tools.ffmpeg, ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=300:sample_rate=48000:duration=9', voice]);
    const spans = talkingSpans(9, [4], 5);
    expect(spans).toEqual([
      { start: 0, end: 4 },
      { start: 4, end: 9 },
    ]);
    const pieces = await Promise.all(spans.map((span, i) => cutSpeech(voice, span, join(work, `span-${i}.m4a`), tools)));
    const lengths = await Promise.all(pieces.map(async (piece) => (await probe(tools, piece)).duration));
    expect(lengths[0]).toBeCloseTo(4, 1);
    expect(lengths[1]).toBeCloseTo(5, 1);
    // A model's clips come back a little short or long, at its own size and rate.
    const clips = await Promise.all(
      [3.6, 5.4].map((seconds, i) => makeVideo(tools, join(work, `clip-${i}.mp4`), { seconds, width: 512, height: 512 })),
    );
    const out = await joinTalkingClips(clips, spans, voice, { width: 540, height: 960 }, join(work, 'talking.mp4'), tools);
    const probed = await probe(tools, out);
    expect(probed.duration).toBeCloseTo(9, 1);
    expect(probed.streams.find((s) => s.type === 'video')).toMatchObject({ width: 540, height: 960 });
    expect(probed.streams.some((s) => s.type === 'audio')).toBe(true);
  });
});
