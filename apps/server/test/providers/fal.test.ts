import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { locateTools, probe } from '@reelsmith/media';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { falProviders } from '../../src/providers/fal/index.js';
import { ProviderError, ProviderTimeoutError } from '../../src/providers/http.js';
import { loadSettings } from '../../src/settings.js';
import { audioSeconds, fakeVendor, json, outputPng, talkingClipFor, testJob } from './fakeVendor.js';

const MODEL = 'fal-ai/flux/dev';
const VIDEO = 'fal-ai/kling-video/v2/master/text-to-video';

describe('fal.ai queue adapter', () => {
  const fal = fakeVendor();
  let job: ReturnType<typeof testJob>;
  beforeEach(() => {
    fal.requests.length = 0;
    fal.handlers.clear();
    job = testJob();
  });
  afterEach(() => job.cleanup());

  const providers = (env: Record<string, string> = {}) => {
    const settings = loadSettings({
      DATA_DIR: join(tmpdir(), 'reelsmith-fal-unused'),
      FAL_KEY: 'fal-secret',
      FAL_BASE_URL: fal.base,
      PROVIDER_TEXT_TO_IMAGE: `fal:${MODEL}`,
      PROVIDER_TEXT_TO_VIDEO: `fal:${VIDEO}`,
      PROVIDER_POLL_MS: '20',
      ...env,
    });
    return falProviders(settings, settings.generation.fal as NonNullable<typeof settings.generation.fal>);
  };

  /** A queue that answers IN_QUEUE, IN_PROGRESS, then COMPLETED, under the app's path as fal does. */
  function queue(app: string, model: string, result: (res: Parameters<typeof json>[0]) => void) {
    let looks = 0;
    fal.handlers.set(`POST /${model}`, (_req, res) =>
      json(res, 200, {
        request_id: 'req-1',
        status: 'IN_QUEUE',
        status_url: `${fal.base}/${app}/requests/req-1/status`,
        response_url: `${fal.base}/${app}/requests/req-1`,
        cancel_url: `${fal.base}/${app}/requests/req-1/cancel`,
      }),
    );
    fal.handlers.set(`GET /${app}/requests/req-1/status`, (_req, res) => {
      looks++;
      json(res, looks < 3 ? 202 : 200, { status: looks === 1 ? 'IN_QUEUE' : looks === 2 ? 'IN_PROGRESS' : 'COMPLETED' });
    });
    fal.handlers.set(`GET /${app}/requests/req-1`, (_req, res) => result(res));
  }

  it('submits, follows the queue and copies each picture into the work directory', async () => {
    const png = await outputPng();
    fal.handlers.set('GET /files/a.png', (_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(png));
    queue('fal-ai/flux', MODEL, (res) =>
      json(res, 200, { images: [{ url: `${fal.base}/files/a.png` }, { url: `data:image/png;base64,${png.toString('base64')}` }] }),
    );
    const files = await providers().textToImage?.generate(
      { prompt: 'a lamp', width: 576, height: 1024, count: 2, model: 'v1', quality: 'standard' },
      job.job,
    );
    expect(files).toHaveLength(2);
    for (const file of files ?? []) expect(readFileSync(file)).toEqual(png);
    const submit = fal.requests.find((r) => r.method === 'POST');
    expect(submit?.headers.authorization).toBe('Key fal-secret');
    expect(JSON.parse(submit?.body.toString() as string)).toMatchObject({
      prompt: 'a lamp',
      image_size: { width: 576, height: 1024 },
      num_images: 2,
    });
    expect(job.stages).toEqual(['initialFrames', 'animating']);
  });

  it('makes "Detailed" (v2) pictures with the second model set for the capability, "Fast" (v1) ones with the first', async () => {
    const png = await outputPng();
    const DETAILED = 'fal-ai/flux-pro/v1.1';
    for (const [app, model] of [
      ['fal-ai/flux', MODEL],
      ['fal-ai/flux-pro', DETAILED],
    ] as const)
      queue(app, model, (res) => json(res, 200, { images: [{ url: `data:image/png;base64,${png.toString('base64')}` }] }));
    const withDetailed = providers({ PROVIDER_TEXT_TO_IMAGE_PRO: DETAILED });
    const request = { prompt: 'a lamp', width: 576, height: 1024, count: 1, quality: 'standard' } as const;
    await withDetailed.textToImage?.generate({ ...request, model: 'v2' }, job.job);
    await withDetailed.textToImage?.generate({ ...request, model: 'v1' }, job.job);
    expect(fal.requests.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual([`/${DETAILED}`, `/${MODEL}`]);
  });

  it('sends a video model its duration and ratio, and keeps the video it made', async () => {
    fal.handlers.set('GET /files/v.mp4', (_req, res) => res.writeHead(200).end(Buffer.from('video bytes')));
    queue('fal-ai/kling-video', VIDEO, (res) => json(res, 200, { video: { url: `${fal.base}/files/v.mp4` } }));
    const file = await providers().textToVideo?.generate(
      { prompt: 'a car', duration: 10, width: 720, height: 1280, tier: 'std', soundEffect: false },
      job.job,
    );
    expect(readFileSync(file as string).toString()).toBe('video bytes');
    expect(JSON.parse(fal.requests[0]?.body.toString() as string)).toMatchObject({ duration: '10', aspect_ratio: '9:16' });
  });

  it('puts the product in the presenter’s hands: the Product Holding app takes the two pictures, an edit model them with an instruction', async () => {
    const png = await outputPng();
    fal.handlers.set('GET /files/held.png', (_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(png));
    const person = join(job.job.workDir, 'person.png');
    const product = join(job.job.workDir, 'product.png');
    writeFileSync(person, png);
    writeFileSync(product, png);
    for (const [app, model] of [
      ['fal-ai/image-apps-v2', 'fal-ai/image-apps-v2/product-holding'],
      ['fal-ai/nano-banana', 'fal-ai/nano-banana/edit'],
    ] as const) {
      fal.requests.length = 0;
      queue(app, model, (res) => json(res, 200, { images: [{ url: `${fal.base}/files/held.png` }] }));
      const file = await providers({ PROVIDER_PRODUCT_HOLDING: `fal:${model}` }).productHolding?.hold({ person, product }, job.job);
      expect(readFileSync(file as string)).toEqual(png);
      const body = JSON.parse(fal.requests.find((r) => r.method === 'POST')?.body.toString() as string);
      if (model.endsWith('product-holding')) {
        expect(Object.keys(body).sort()).toEqual(['person_image_url', 'product_image_url']);
        expect(body.person_image_url).toMatch(/^data:image\/png;base64,/);
      } else {
        expect(body).toMatchObject({ num_images: 1, output_format: 'png', prompt: expect.stringContaining('holds the product') });
        expect(body.image_urls).toHaveLength(2);
      }
    }
  });

  it('makes a presenter speak a voice longer than the model takes: cut on sentence ends, one run a part, joined under the voice', {
    timeout: 60_000,
  }, async () => {
    const AVATAR = 'fal-ai/bytedance/omnihuman/v1.5';
    let made = 0;
    fal.handlers.set(`POST /${AVATAR}`, (req, res) => {
      const id = `talk-${++made}`;
      const clip = talkingClipFor(JSON.parse(req.body.toString()).audio_url);
      fal.handlers.set(`GET /files/${id}.mp4`, (_r, out) => out.writeHead(200, { 'content-type': 'video/mp4' }).end(clip));
      fal.handlers.set(`GET /fal-ai/bytedance/requests/${id}/status`, (_r, out) => json(out, 200, { status: 'COMPLETED' }));
      fal.handlers.set(`GET /fal-ai/bytedance/requests/${id}`, (_r, out) =>
        json(out, 200, { video: { url: `${fal.base}/files/${id}.mp4` } }),
      );
      json(res, 200, { request_id: id, status: 'IN_QUEUE' });
    });
    const tools = locateTools();
    const voice = `${job.job.workDir}/voice.wav`;
    execFileSync(tools.ffmpeg, ['-v', 'error', '-f', 'lavfi', '-i', 'sine=frequency=220:sample_rate=24000:duration=40', voice]);
    const portrait = `${job.job.workDir}/portrait.png`;
    writeFileSync(portrait, await outputPng());
    const file = await providers({ PROVIDER_TALKING_AVATAR: `fal:${AVATAR}` }).talkingAvatar?.talk(
      { image: portrait, voice, sentenceEnds: [12, 26, 33], width: 270, height: 480 },
      job.job,
    );
    // OmniHuman takes 30 s a run: the sentence ending at 26 s is the last that fits, the rest is the second run.
    const bodies = fal.requests.filter((r) => r.method === 'POST').map((r) => JSON.parse(r.body.toString()));
    expect(bodies).toHaveLength(2);
    for (const body of bodies) {
      expect(body.image_url).toMatch(/^data:image\/png;base64,/);
      expect(body.audio_url).toMatch(/^data:audio\/[\w-]+;base64,/);
      expect(body).not.toHaveProperty('prompt');
    }
    const heard = bodies.map((body) => audioSeconds(body.audio_url));
    expect(heard[0]).toBeCloseTo(26, 1);
    expect(heard[1]).toBeCloseTo(14, 1);
    const joined = await probe(tools, file as string);
    expect(joined.duration).toBeCloseTo(40, 0);
    expect(joined.streams.find((s) => s.type === 'video')).toMatchObject({ width: 270, height: 480 });
    expect(joined.streams.some((s) => s.type === 'audio')).toBe(true);
  });

  it('reports a model failure, a 429 and an answer without a request id as provider errors', async () => {
    queue('fal-ai/flux', MODEL, (res) => json(res, 422, { detail: [{ msg: 'image_size too large' }] }));
    const request = { prompt: 'x', width: 64, height: 64, count: 1, model: 'v1' as const, quality: 'standard' as const };
    await expect(providers().textToImage?.generate(request, job.job)).rejects.toMatchObject({
      status: 422,
      message: expect.stringContaining('image_size too large'),
    });

    fal.handlers.set(`POST /${MODEL}`, (_req, res) => json(res, 429, { detail: 'Rate limit exceeded' }));
    await expect(providers().textToImage?.generate(request, job.job)).rejects.toMatchObject({ name: 'ProviderError', status: 429 });

    fal.handlers.set(`POST /${MODEL}`, (_req, res) => json(res, 200, { hello: 'world' }));
    await expect(providers().textToImage?.generate(request, job.job)).rejects.toBeInstanceOf(ProviderError);

    queue('fal-ai/flux', MODEL, (res) => json(res, 200, { images: [] }));
    await expect(providers().textToImage?.generate(request, job.job)).rejects.toThrow(/no output/);
  });

  it('gives up on a queue that never finishes, cancelling the request, and on a stalled answer', async () => {
    fal.handlers.set(`POST /${MODEL}`, (_req, res) => json(res, 200, { request_id: 'slow' }));
    fal.handlers.set('GET /fal-ai/flux/requests/slow/status', (_req, res) => json(res, 202, { status: 'IN_QUEUE' }));
    fal.handlers.set('PUT /fal-ai/flux/requests/slow/cancel', (_req, res) => json(res, 202, { status: 'CANCELLATION_REQUESTED' }));
    const request = { prompt: 'x', width: 64, height: 64, count: 1, model: 'v1' as const, quality: 'standard' as const };
    await expect(providers({ PROVIDER_TIMEOUT_SECONDS: '1' }).textToImage?.generate(request, job.job)).rejects.toBeInstanceOf(
      ProviderTimeoutError,
    );
    expect(fal.requests.some((r) => r.method === 'PUT' && r.path === '/fal-ai/flux/requests/slow/cancel')).toBe(true);

    fal.handlers.set(`POST /${MODEL}`, () => undefined);
    await expect(providers({ PROVIDER_REQUEST_TIMEOUT_SECONDS: '1' }).textToImage?.generate(request, job.job)).rejects.toBeInstanceOf(
      ProviderTimeoutError,
    );
  });

  it('stops when the task is cancelled, asking fal to cancel too, and refuses an output over the size limit', async () => {
    fal.handlers.set(`POST /${MODEL}`, (_req, res) => json(res, 200, { request_id: 'r2' }));
    fal.handlers.set('GET /fal-ai/flux/requests/r2/status', (_req, res) => json(res, 202, { status: 'IN_PROGRESS' }));
    fal.handlers.set('PUT /fal-ai/flux/requests/r2/cancel', (_req, res) => json(res, 202, { status: 'CANCELLATION_REQUESTED' }));
    const controller = new AbortController();
    const cancelled = testJob(controller.signal);
    const request = { prompt: 'x', width: 64, height: 64, count: 1, model: 'v1' as const, quality: 'standard' as const };
    setTimeout(() => controller.abort(new Error('cancelled by the user')), 100);
    await expect(providers().textToImage?.generate(request, cancelled.job)).rejects.toThrow('cancelled by the user');
    expect(fal.requests.some((r) => r.path === '/fal-ai/flux/requests/r2/cancel')).toBe(true);
    cancelled.cleanup();

    const big = await sharp({ create: { width: 2000, height: 2000, channels: 3, background: '#808080' } })
      .raw()
      .toBuffer();
    fal.handlers.set('GET /files/big', (_req, res) => res.writeHead(200).end(big));
    queue('fal-ai/flux', MODEL, (res) => json(res, 200, { images: [{ url: `${fal.base}/files/big` }] }));
    await expect(providers({ MAX_IMAGE_MB: '1' }).textToImage?.generate(request, job.job)).rejects.toThrow(/more than/);
  });
});
