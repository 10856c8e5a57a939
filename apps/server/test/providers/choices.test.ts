import { describe, expect, it } from 'vitest';
import { generationProviders } from '../../src/providers/registry.js';
import { loadSettings } from '../../src/settings.js';

const load = (env: Record<string, string>) => loadSettings({ DATA_DIR: '/tmp/reelsmith-choices-unused', ...env });
/** A production environment that passes the other checks of production mode. */
const PRODUCTION = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgres://reelsmith@db/reelsmith',
  SESSION_SECRET: 'p'.repeat(32),
  PUBLIC_URL: 'https://studio.example',
  GOOGLE_CLIENT_ID: 'id',
  GOOGLE_CLIENT_SECRET: 'secret',
  METRICS_TOKEN: 'm'.repeat(16),
};

describe('generation provider settings', () => {
  it('uses the sandbox for what no local model can do outside production, the local engine for the rest, and only the local engine in production', () => {
    const dev = generationProviders(load({}));
    expect(
      [dev.textToImage, dev.imageToImage, dev.textToVideo, dev.virtualTryOn, dev.talkingAvatar, dev.productHolding].map((p) => p?.name),
    ).toEqual(Array(6).fill('sandbox'));
    const local = ['imageToVideo', 'removeBackground', 'replaceBackground', 'extendImage', 'upscale'] as const;
    expect(local.map((capability) => dev[capability]?.name)).toEqual(Array(5).fill('local'));
    const production = generationProviders(load(PRODUCTION));
    expect([
      production.textToImage,
      production.imageToImage,
      production.textToVideo,
      production.virtualTryOn,
      production.talkingAvatar,
      production.productHolding,
    ]).toEqual([null, null, null, null, null, null]);
    expect(local.map((capability) => production[capability]?.name)).toEqual(Array(5).fill('local'));
  });

  it('gives each capability the vendor and model named, with the pro tier’s model', () => {
    const settings = load({
      FAL_KEY: 'k',
      PROVIDER_TEXT_TO_VIDEO: 'fal:fal-ai/kling-video/v2/master/text-to-video',
      PROVIDER_TEXT_TO_VIDEO_PRO: 'fal-ai/kling-video/v2.1/pro/text-to-video',
      PROVIDER_UPSCALE: 'fal:fal-ai/esrgan',
      PROVIDER_VIRTUAL_TRY_ON: 'none',
    });
    expect(settings.generation.fal).toEqual({ key: 'k', baseUrl: 'https://queue.fal.run' });
    expect(settings.generation.choices.textToVideo).toEqual({
      vendor: 'fal',
      model: 'fal-ai/kling-video/v2/master/text-to-video',
      proModel: 'fal-ai/kling-video/v2.1/pro/text-to-video',
    });
    const providers = generationProviders(settings);
    expect([providers.textToVideo?.name, providers.upscale?.name, providers.virtualTryOn, providers.textToImage?.name]).toEqual([
      'fal',
      'fal',
      null,
      'sandbox',
    ]);
  });

  it('refuses settings that cannot work, naming the variable', () => {
    expect(() => load({ PROVIDER_TEXT_TO_IMAGE: 'fal:fal-ai/flux/dev' })).toThrow('FAL_KEY: required by PROVIDER_TEXT_TO_IMAGE');
    expect(() => load({ ...PRODUCTION, PROVIDER_TEXT_TO_IMAGE: 'sandbox' })).toThrow(
      /PROVIDER_TEXT_TO_IMAGE: the sandbox .* not production/,
    );
    expect(() => load({ OPENAI_IMAGES_API_KEY: 'k', PROVIDER_TEXT_TO_VIDEO: 'openai:sora' })).toThrow(
      'PROVIDER_TEXT_TO_VIDEO: openai cannot serve',
    );
    expect(() => load({ PROVIDER_UPSCALE: 'sandbox' })).toThrow('PROVIDER_UPSCALE: the sandbox has no stand-in');
    expect(() => load({ PROVIDER_TEXT_TO_IMAGE: 'midjourney' })).toThrow(/PROVIDER_TEXT_TO_IMAGE: must be fal:<model>/);
    expect(() => load({ FAL_BASE_URL: 'ftp://x' })).toThrow('FAL_BASE_URL');
  });
});
