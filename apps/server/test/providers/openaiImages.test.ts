import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openAiImagesProviders } from '../../src/providers/openai/images.js';
import { loadSettings } from '../../src/settings.js';
import { fakeVendor, json, outputPng, testJob } from './fakeVendor.js';

describe('OpenAI images adapter', () => {
  const openai = fakeVendor();
  let job: ReturnType<typeof testJob>;
  beforeEach(() => {
    openai.requests.length = 0;
    openai.handlers.clear();
    job = testJob();
  });
  afterEach(() => job.cleanup());

  const providers = (model = 'gpt-image-1') => {
    const settings = loadSettings({
      DATA_DIR: join(tmpdir(), 'reelsmith-openai-unused'),
      OPENAI_IMAGES_API_KEY: 'sk-secret',
      OPENAI_IMAGES_BASE_URL: `${openai.base}/v1`,
      PROVIDER_TEXT_TO_IMAGE: `openai:${model}`,
      PROVIDER_IMAGE_TO_IMAGE: `openai:${model}`,
    });
    return openAiImagesProviders(settings, settings.generation.openaiImages as NonNullable<typeof settings.generation.openaiImages>);
  };
  const request = { prompt: 'a lamp', width: 576, height: 1024, count: 2, model: 'v1' as const, quality: 'high' as const };

  it('generates with the closest size and keeps the b64_json pictures', async () => {
    const png = await outputPng();
    openai.handlers.set('POST /v1/images/generations', (_req, res) =>
      json(res, 200, { data: [{ b64_json: png.toString('base64') }, { b64_json: png.toString('base64') }] }),
    );
    const files = await providers().textToImage?.generate(request, job.job);
    expect(files?.map((f) => readFileSync(f))).toEqual([png, png]);
    expect(openai.requests[0]?.headers.authorization).toBe('Bearer sk-secret');
    expect(JSON.parse(openai.requests[0]?.body.toString() as string)).toEqual({
      model: 'gpt-image-1',
      prompt: 'a lamp',
      n: 2,
      size: '1024x1536',
      quality: 'high',
    });
  });

  it('asks DALL·E 3 once per picture, and edits a picture as multipart', async () => {
    const png = await outputPng();
    openai.handlers.set('POST /v1/images/generations', (_req, res) => json(res, 200, { data: [{ b64_json: png.toString('base64') }] }));
    expect(await providers('dall-e-3').textToImage?.generate(request, job.job)).toHaveLength(2);
    expect(openai.requests.map((r) => JSON.parse(r.body.toString()).n)).toEqual([1, 1]);

    openai.handlers.set('POST /v1/images/edits', (_req, res) => json(res, 200, { data: [{ b64_json: png.toString('base64') }] }));
    const source = join(job.job.workDir, 'source.png');
    writeFileSync(source, png);
    const files = await providers().imageToImage?.generate({ ...request, count: 1, image: source }, job.job);
    expect(files).toHaveLength(1);
    const edit = openai.requests.at(-1);
    expect(edit?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(edit?.body.toString('latin1')).toContain('name="image"; filename="image.png"');
  });

  it('reports OpenAI’s error envelope with its status', async () => {
    openai.handlers.set('POST /v1/images/generations', (_req, res) =>
      json(res, 400, { error: { message: 'Your request was rejected by the safety system.', type: 'invalid_request_error' } }),
    );
    await expect(providers().textToImage?.generate(request, job.job)).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('safety system'),
    });
  });
});
