import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { imageInfo, locateTools, probe } from '@reelsmith/media';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProviderTimeoutError } from '../../src/providers/http.js';
import { replicateProviders } from '../../src/providers/replicate/index.js';
import { loadSettings } from '../../src/settings.js';
import { audioSeconds, fakeVendor, json, outputPng, talkingClipFor, testJob } from './fakeVendor.js';

describe('Replicate predictions adapter', () => {
  const replicate = fakeVendor();
  let job: ReturnType<typeof testJob>;
  beforeEach(() => {
    replicate.requests.length = 0;
    replicate.handlers.clear();
    job = testJob();
  });
  afterEach(() => job.cleanup());

  const providers = (env: Record<string, string> = {}) => {
    const settings = loadSettings({
      DATA_DIR: join(tmpdir(), 'reelsmith-replicate-unused'),
      REPLICATE_API_TOKEN: 'r8_secret',
      REPLICATE_BASE_URL: replicate.base,
      PROVIDER_TEXT_TO_IMAGE: 'replicate:black-forest-labs/flux-schnell',
      PROVIDER_VIRTUAL_TRY_ON: 'replicate:cuuupid/idm-vton:0513734a452173b8173e907e3a59d19a36266e55b48528559432bd21c7d7e985',
      PROVIDER_POLL_MS: '20',
      ...env,
    });
    return replicateProviders(settings, settings.generation.replicate as NonNullable<typeof settings.generation.replicate>);
  };

  /** A prediction that starts, processes, then ends as `last`. */
  function prediction(id: string, last: object) {
    let looks = 0;
    replicate.handlers.set(`GET /v1/predictions/${id}`, (_req, res) => {
      looks++;
      json(res, 200, looks === 1 ? { id, status: 'processing', output: null } : { id, ...last });
    });
  }
  const request = { prompt: 'a lamp', width: 1024, height: 576, count: 2, model: 'v1' as const, quality: 'standard' as const };

  it('creates a prediction on the model, polls it to success and copies the outputs', async () => {
    const png = await outputPng();
    replicate.handlers.set('GET /files/1.png', (_req, res) => res.writeHead(200).end(png));
    replicate.handlers.set('POST /v1/models/black-forest-labs/flux-schnell/predictions', (_req, res) =>
      json(res, 201, { id: 'p1', status: 'starting', output: null, urls: { get: `${replicate.base}/v1/predictions/p1` } }),
    );
    prediction('p1', { status: 'succeeded', output: [`${replicate.base}/files/1.png`, `${replicate.base}/files/1.png`] });
    const files = await providers().textToImage?.generate(request, job.job);
    expect(files?.map((f) => readFileSync(f))).toEqual([png, png]);
    const create = replicate.requests[0];
    expect(create?.headers.authorization).toBe('Bearer r8_secret');
    expect(JSON.parse(create?.body.toString() as string)).toMatchObject({
      input: { prompt: 'a lamp', aspect_ratio: '16:9', num_outputs: 2 },
    });
    expect(job.stages).toEqual(['initialFrames', 'animating']);
  });

  it('puts the product in the presenter’s hands with Nano Banana: the portrait first, the user’s direction as the prompt', async () => {
    const png = await outputPng();
    replicate.handlers.set('GET /files/held.png', (_req, res) => res.writeHead(200).end(png));
    replicate.handlers.set('POST /v1/models/google/nano-banana/predictions', (_req, res) =>
      json(res, 201, { id: 'h1', status: 'starting', output: null }),
    );
    prediction('h1', { status: 'succeeded', output: `${replicate.base}/files/held.png` });
    const person = join(job.job.workDir, 'person.png');
    const product = join(job.job.workDir, 'product.jpg');
    writeFileSync(person, png);
    writeFileSync(product, await sharp(png).jpeg().toBuffer());
    const file = await providers({ PROVIDER_PRODUCT_HOLDING: 'replicate:google/nano-banana' }).productHolding?.hold(
      { person, product, prompt: 'Holds the bottle in her left hand, label to the camera.' },
      job.job,
    );
    expect(readFileSync(file as string)).toEqual(png);
    const { input } = JSON.parse(replicate.requests.find((r) => r.method === 'POST')?.body.toString() as string);
    expect(input).toMatchObject({ prompt: 'Holds the bottle in her left hand, label to the camera.', output_format: 'png' });
    expect(input.image_input.map((uri: string) => uri.slice(0, 15))).toEqual(['data:image/png;', 'data:image/jpeg']);
  });

  it('makes a presenter speak a voice longer than OmniHuman takes: cut at its limit where no sentence ends, joined', {
    timeout: 60_000,
  }, async () => {
    let made = 0;
    replicate.handlers.set('POST /v1/models/bytedance/omni-human-1.5/predictions', (req, res) => {
      const id = `o${++made}`;
      const clip = talkingClipFor(JSON.parse(req.body.toString()).input.audio);
      replicate.handlers.set(`GET /files/${id}.mp4`, (_r, out) => out.writeHead(200, { 'content-type': 'video/mp4' }).end(clip));
      prediction(id, { status: 'succeeded', output: `${replicate.base}/files/${id}.mp4` });
      json(res, 201, { id, status: 'starting', output: null });
    });
    const tools = locateTools();
    const voice = join(job.job.workDir, 'voice.wav');
    execFileSync(tools.ffmpeg, ['-v', 'error', '-f', 'lavfi', '-i', 'sine=frequency=220:sample_rate=24000:duration=40', voice]);
    const portrait = join(job.job.workDir, 'portrait.png');
    writeFileSync(portrait, await outputPng());
    const file = await providers({ PROVIDER_TALKING_AVATAR: 'replicate:bytedance/omni-human-1.5' }).talkingAvatar?.talk(
      { image: portrait, voice, sentenceEnds: [], prompt: 'smiles, points at the product', width: 270, height: 480 },
      job.job,
    );
    const inputs = replicate.requests.filter((r) => r.method === 'POST').map((r) => JSON.parse(r.body.toString()).input);
    expect(inputs.map((input) => Object.keys(input).sort())).toEqual([
      ['audio', 'image', 'prompt'],
      ['audio', 'image', 'prompt'],
    ]);
    expect(inputs[0].prompt).toBe('smiles, points at the product');
    expect(audioSeconds(inputs[0].audio)).toBeCloseTo(30, 1);
    expect(audioSeconds(inputs[1].audio)).toBeCloseTo(10, 1);
    const joined = await probe(tools, file as string);
    expect(joined.duration).toBeCloseTo(40, 0);
    expect(joined.streams.find((s) => s.type === 'video')).toMatchObject({ width: 270, height: 480 });
  });

  it('runs a pinned version through /v1/predictions, in two passes for two pieces', async () => {
    const png = await outputPng();
    replicate.handlers.set('GET /files/t.png', (_req, res) => res.writeHead(200).end(png));
    let created = 0;
    replicate.handlers.set('POST /v1/predictions', (_req, res) => json(res, 201, { id: `v${++created}`, status: 'starting' }));
    for (const id of ['v1', 'v2']) prediction(id, { status: 'succeeded', output: `${replicate.base}/files/t.png` });
    const person = join(job.job.workDir, 'person.png');
    writeFileSync(person, png);
    const files = await providers().virtualTryOn?.generate(
      { garmentType: 'twoPieces', model: person, top: person, bottom: person, count: 1 },
      job.job,
    );
    expect(files).toHaveLength(1);
    const bodies = replicate.requests.filter((r) => r.method === 'POST').map((r) => JSON.parse(r.body.toString()));
    expect(bodies.map((b) => [b.version.slice(0, 8), b.input.category])).toEqual([
      ['0513734a', 'upper_body'],
      ['0513734a', 'lower_body'],
    ]);
    expect(bodies[0].input.human_img).toMatch(/^data:image\/png;base64,/);
  });

  it('extends a picture with the configured outpainting model, placing it on the asked canvas and keeping that shape', async () => {
    // The model answers twice the canvas (as a model that rounds or bounds its output may): the result is the canvas.
    const answer = await sharp({ create: { width: 192, height: 108, channels: 3, background: { r: 240, g: 240, b: 236 } } })
      .png()
      .toBuffer();
    replicate.handlers.set('GET /files/wide.png', (_req, res) => res.writeHead(200).end(answer));
    replicate.handlers.set('POST /v1/models/bria/expand-image/predictions', (_req, res) =>
      json(res, 201, { id: 'x1', status: 'starting' }),
    );
    prediction('x1', { status: 'succeeded', output: `${replicate.base}/files/wide.png` });
    const photo = join(job.job.workDir, 'photo.png');
    writeFileSync(
      photo,
      await sharp({ create: { width: 40, height: 50, channels: 3, background: '#c03020' } })
        .png()
        .toBuffer(),
    );

    const extend = providers({ PROVIDER_EXTEND_IMAGE: 'replicate:bria/expand-image' }).extendImage;
    const file = await extend?.extend({ image: photo, width: 96, height: 54, left: 28, top: 2 }, job.job);

    const create = replicate.requests.find((r) => r.method === 'POST');
    expect(create?.path).toBe('/v1/models/bria/expand-image/predictions');
    const { input } = JSON.parse(create?.body.toString() as string);
    expect(input).toEqual({
      image: expect.stringMatching(/^data:image\/png;base64,/),
      canvas_size: [96, 54],
      original_image_size: [40, 50],
      original_image_location: [28, 2],
    });
    // The picture sent is the user's, byte for byte; no prompt or ratio that would override the placement.
    expect(Buffer.from(input.image.split(',')[1], 'base64')).toEqual(readFileSync(photo));
    expect(await imageInfo(file as string)).toMatchObject({ width: 96, height: 54 });
  });

  it('runs a pinned outpainting version through /v1/predictions and keeps an answer already at the canvas as it is', async () => {
    const answer = await sharp({ create: { width: 60, height: 80, channels: 3, background: '#808080' } })
      .png()
      .toBuffer();
    replicate.handlers.set('GET /files/tall.png', (_req, res) => res.writeHead(200).end(answer));
    replicate.handlers.set('POST /v1/predictions', (_req, res) => json(res, 201, { id: 'x2', status: 'starting' }));
    prediction('x2', { status: 'succeeded', output: `${replicate.base}/files/tall.png` });
    const photo = join(job.job.workDir, 'photo.png');
    writeFileSync(photo, await outputPng());

    const extend = providers({ PROVIDER_EXTEND_IMAGE: 'replicate:bria/expand-image:4f1c2a9e' }).extendImage;
    const file = await extend?.extend({ image: photo, width: 60, height: 80, left: 0, top: 16 }, job.job);

    const body = JSON.parse(replicate.requests.find((r) => r.method === 'POST')?.body.toString() as string);
    expect(body.version).toBe('4f1c2a9e');
    expect(body.input).toMatchObject({ canvas_size: [60, 80], original_image_size: [64, 48], original_image_location: [0, 16] });
    expect(readFileSync(file as string)).toEqual(answer);
  });

  it('reports a failed or canceled prediction, a 429 and a prediction that never ends (cancelling it)', async () => {
    replicate.handlers.set('POST /v1/models/black-forest-labs/flux-schnell/predictions', (_req, res) =>
      json(res, 201, { id: 'f', status: 'starting' }),
    );
    prediction('f', { status: 'failed', error: 'NSFW content detected' });
    await expect(providers().textToImage?.generate(request, job.job)).rejects.toThrow(/failed: NSFW content detected/);

    replicate.handlers.set('POST /v1/models/black-forest-labs/flux-schnell/predictions', (_req, res) =>
      json(res, 429, { title: 'Too Many Requests', detail: 'Request was throttled.' }),
    );
    await expect(providers().textToImage?.generate(request, job.job)).rejects.toMatchObject({
      status: 429,
      message: expect.stringContaining('throttled'),
    });

    replicate.handlers.set('POST /v1/models/black-forest-labs/flux-schnell/predictions', (_req, res) =>
      json(res, 201, { id: 'slow', status: 'starting' }),
    );
    replicate.handlers.set('GET /v1/predictions/slow', (_req, res) => json(res, 200, { id: 'slow', status: 'processing' }));
    replicate.handlers.set('POST /v1/predictions/slow/cancel', (_req, res) => json(res, 200, { id: 'slow', status: 'canceled' }));
    await expect(providers({ PROVIDER_TIMEOUT_SECONDS: '1' }).textToImage?.generate(request, job.job)).rejects.toBeInstanceOf(
      ProviderTimeoutError,
    );
    expect(replicate.requests.some((r) => r.path === '/v1/predictions/slow/cancel')).toBe(true);

    replicate.handlers.set('POST /v1/models/black-forest-labs/flux-schnell/predictions', (_req, res) =>
      res.writeHead(200).end('<html>gateway</html>'),
    );
    await expect(providers().textToImage?.generate(request, job.job)).rejects.toThrow(/not JSON/);
  });
});
