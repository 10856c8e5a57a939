import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { locateTools, probe } from '@reelsmith/media';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generationProviders } from '../../src/providers/registry.js';
import { talkingLimit } from '../../src/providers/remote/adapters.js';
import { loadSettings } from '../../src/settings.js';
import { outputPng, testJob } from './fakeVendor.js';

describe('talking presenters', () => {
  let job: ReturnType<typeof testJob>;
  beforeEach(() => {
    job = testJob();
  });
  afterEach(() => job.cleanup());

  it('has the sandbox stand in outside production: the portrait under its mark, with the voice, exactly as long', {
    timeout: 60_000,
  }, async () => {
    const tools = locateTools();
    const voice = join(job.job.workDir, 'voice.wav');
    execFileSync(tools.ffmpeg, ['-v', 'error', '-f', 'lavfi', '-i', 'sine=frequency=220:sample_rate=24000:duration=6.4', voice]);
    const portrait = join(job.job.workDir, 'portrait.png');
    writeFileSync(portrait, await outputPng());
    const provider = generationProviders(loadSettings({ DATA_DIR: job.job.workDir })).talkingAvatar;
    expect(provider?.name).toBe('sandbox');
    const file = await provider?.talk({ image: portrait, voice, sentenceEnds: [3.1], width: 270, height: 480 }, job.job);
    const made = await probe(tools, file as string);
    expect(made.duration).toBeCloseTo(6.4, 1);
    expect(made.streams.find((s) => s.type === 'video')).toMatchObject({ width: 270, height: 480 });
    expect(made.streams.some((s) => s.type === 'audio')).toBe(true);
  });

  it('knows how much voice each model takes a run, and assumes 30 s of one it does not know', () => {
    expect(talkingLimit('fal-ai/kling-video/ai-avatar/v2/standard')).toBe(60);
    expect(talkingLimit('fal-ai/bytedance/omnihuman/v1.5')).toBe(30);
    expect(talkingLimit('bytedance/omni-human-1.5')).toBe(30);
    expect(talkingLimit('someone/new-avatar-model')).toBe(30);
  });
});
