import { FILL, scriptSeconds } from '@reelsmith/media';
import { describe, expect, it } from 'vitest';
import type { AppContext } from '../../src/context.js';
import { scriptsFor } from '../../src/modules/link-video/video/scripts.js';
import type { LinkVideoInput, VideoSettings } from '../../src/modules/link-video/video/source.js';
import { openAiScriptWriter } from '../../src/providers/openai/scripts.js';
import { scriptWriter } from '../../src/providers/registry.js';
import type { Settings } from '../../src/settings.js';
import { api, completion, error, type FakeOpenAi, failure, fakeOpenAi, json, stall } from './fakeOpenAi.js';

const brief = {
  productName: 'Aqua Bottle - 1L Stainless Steel',
  productDescription: 'Keeps drinks cold for 24 hours. Leak-proof lid. Fits every cup holder.',
  language: 'en' as const,
  videoLength: 15 as const,
  count: 3,
};

const SCRIPTS = [
  [
    'Still drinking warm water at noon?',
    'Aqua Bottle keeps drinks cold for 24 hours.',
    'Its lid never leaks.',
    'Tap the link to get yours.',
  ],
  ['Meet your new favourite bottle.', 'Cold for a whole day, every day.', 'It fits every cup holder.', 'Order yours today.'],
  [
    'Hook: This bottle changed my commute.',
    'Benefits: Ice cold at five in the afternoon.',
    'Proof: No more leaks in my bag.',
    'CTA: Get it now.',
  ],
];

const answerScripts = (fake: FakeOpenAi, scripts: unknown) =>
  fake.answer((req, res) =>
    req.path === '/v1/chat/completions' ? completion(res, JSON.stringify({ scripts })) : error(res, 404, 'no route'),
  );

describe('OpenAI-compatible script writer', () => {
  const fake = fakeOpenAi();

  it('asks the chat completions API for JSON scripts and answers them as script variants', async () => {
    answerScripts(
      fake,
      SCRIPTS.map((lines) => ({ lines })),
    );
    const scripts = await openAiScriptWriter(api(fake)).write(brief);

    const request = fake.requests.at(-1);
    expect(request?.method).toBe('POST');
    expect(request?.headers.authorization).toBe('Bearer sk-test');
    expect(request?.body).toMatchObject({ model: 'gpt-test', response_format: { type: 'json_object' } });
    const prompt = JSON.stringify(request?.body.messages);
    expect(prompt).toContain('Write 3 different ad scripts in English');
    expect(prompt).toContain('Keeps drinks cold for 24 hours.');
    expect(prompt).toContain('at most 32 words');

    expect(scripts).toHaveLength(3);
    expect(scripts[0]?.segments).toEqual(SCRIPTS[0]?.map((segText, i) => ({ segId: i + 1, segText })));
    // The labels the model was told not to write are not read out.
    expect(scripts[2]?.segments.map((s) => s.segText)).toEqual([
      'This bottle changed my commute.',
      'Ice cold at five in the afternoon.',
      'No more leaks in my bag.',
      'Get it now.',
    ]);
  });

  it('gives the model the page facts as data, with social proof and the offer only when the page has them', async () => {
    answerScripts(fake, [{ segments: SCRIPTS[0] }]);
    await openAiScriptWriter(api(fake)).write({ ...brief, count: 1 });
    const bare = JSON.stringify(fake.requests.at(-1)?.body.messages);
    expect(bare).toContain('never invent a price, discount, rating, review');
    expect(bare).not.toContain('social proof');
    expect(bare).not.toContain('offer-led');
    expect(bare).toContain('\\"spokenName\\":\\"Aqua Bottle\\"');

    answerScripts(fake, [{ segments: [...(SCRIPTS[0] as string[]).slice(0, 3), 'Now $19, down from $25, rated 4.7 by 1,250 buyers.'] }]);
    const [script] = await openAiScriptWriter(api(fake)).write({
      ...brief,
      count: 1,
      productBrand: 'Aqua',
      offer: { price: '19.00', currency: 'USD', listPrice: '25.00' },
      rating: { value: 4.7, count: 1250 },
    });
    const rich = JSON.stringify(fake.requests.at(-1)?.body.messages);
    expect(rich).toContain('social proof');
    expect(rich).toContain('offer-led');
    expect(rich).toContain('\\"price\\":\\"$19\\",\\"priceBeforeSale\\":\\"$25\\"');
    expect(rich).toContain('\\"rating\\":{\\"starsOutOf5\\":4.7,\\"reviews\\":1250}');
    // The figures it says are the page's own, so the script is used.
    expect(script?.segments.at(-1)?.segText).toContain('$19');
  });

  it('sends an answer that breaks the schema back to the model with what was wrong, and uses the mended one', async () => {
    let calls = 0;
    fake.answer((_, res) => {
      calls += 1;
      completion(res, calls === 1 ? '{"ads": ["one"]}' : JSON.stringify({ language: 'en', scripts: [{ segments: SCRIPTS[1] }] }));
    });
    const before = fake.requests.length;
    const [script] = await openAiScriptWriter(api(fake)).write({ ...brief, count: 1 });
    expect(fake.requests.length - before).toBe(2);
    const retry = fake.requests.at(-1)?.body.messages as { role: string; content: string }[];
    expect(retry.at(-1)?.content).toMatch(/^That answer cannot be used: the model's scripts are not/);
    expect(script?.segments[0]?.segText).toBe(SCRIPTS[1]?.[0]);
  });

  it('refuses a script that says a figure the page does not state, asking again and failing after three tries', async () => {
    answerScripts(fake, [{ segments: ['Only $9.99 today!', 'Loved by 10,000 customers.', 'Tap the link.'] }]);
    const before = fake.requests.length;
    const { key, cause } = await failure(openAiScriptWriter(api(fake)).write({ ...brief, count: 1 }));
    expect(key).toBe('scriptWriterFailed');
    expect(cause).toContain('a script says 9.99, which the product facts do not state');
    expect(fake.requests.length - before).toBe(3);
  });

  it('sends no key to a server that needs none (Ollama, vLLM)', async () => {
    answerScripts(fake, [{ lines: SCRIPTS[0] }]);
    await openAiScriptWriter(api(fake, { apiKey: undefined })).write({ ...brief, count: 1 });
    expect(fake.requests.at(-1)?.headers.authorization).toBeUndefined();
  });

  it('trims benefits from a script too long for the video, keeping hook, proof and call to action', async () => {
    const ordinals = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth', 'eleventh', 'twelfth'];
    const benefits = ordinals.map((n) => `The ${n} benefit is a line of about ten words long.`);
    const lines = ['Stop scrolling, this is it.', ...benefits, 'It fits every cup holder.', 'Tap the link now.'];
    answerScripts(fake, [{ lines }]);
    const [script] = await openAiScriptWriter(api(fake)).write({ ...brief, count: 1 });
    const said = script?.segments.map((s) => s.segText) ?? [];
    expect(scriptSeconds(script?.segments ?? [], 'en')).toBeLessThanOrEqual(15 * FILL);
    expect(said[0]).toBe('Stop scrolling, this is it.');
    expect(said.slice(-2)).toEqual(['It fits every cup holder.', 'Tap the link now.']);
    expect(said.slice(1, -2)).toEqual(benefits.slice(0, said.length - 3));
  });

  it('keeps only distinct scripts in the asked language, and accepts bare line lists', async () => {
    answerScripts(fake, [
      SCRIPTS[0],
      { lines: SCRIPTS[0] },
      { lines: ['Ainda bebe água quente ao meio-dia?', 'A garrafa que mantém tudo gelado para você.', 'Peça já a sua.'] },
      { lines: [] },
      { lines: SCRIPTS[1] },
    ]);
    const scripts = await openAiScriptWriter(api(fake)).write(brief);
    expect(scripts.map((s) => s.segments[0]?.segText)).toEqual([SCRIPTS[0]?.[0], SCRIPTS[1]?.[0]]);
  });

  it('writes Chinese scripts sized in characters', async () => {
    answerScripts(fake, [{ lines: ['还在喝温水吗？', '这款水杯保冷二十四小时。', '盖子滴水不漏。', '点击链接马上购买。'] }]);
    const [script] = await openAiScriptWriter(api(fake)).write({ ...brief, language: 'zh', count: 1 });
    expect(JSON.stringify(fake.requests.at(-1)?.body.messages)).toMatch(
      /one ad script in Simplified Chinese.*at most 52 Chinese characters/,
    );
    expect(script?.segments).toHaveLength(4);
  });

  it('asks again without JSON mode when the server refuses response_format', async () => {
    fake.answer((req, res) =>
      req.body.response_format
        ? error(res, 400, 'Unrecognized request argument supplied: response_format')
        : completion(res, `\`\`\`json\n${JSON.stringify({ scripts: [SCRIPTS[1]] })}\n\`\`\``),
    );
    const before = fake.requests.length;
    const scripts = await openAiScriptWriter(api(fake)).write(brief);
    expect(fake.requests.length - before).toBe(2);
    expect(fake.requests.at(-1)?.body).not.toHaveProperty('response_format');
    expect(scripts[0]?.segments[0]?.segText).toBe(SCRIPTS[1]?.[0]);
  });

  it.each([
    [401, 'Incorrect API key provided: sk-test'],
    [429, 'Rate limit reached for gpt-test'],
    [500, 'The server had an error while processing your request'],
  ])("fails the scripts with the error table message on %i, keeping the provider's words for the log", async (status, message) => {
    fake.answer((_, res) => error(res, status, message));
    const { key, cause } = await failure(openAiScriptWriter(api(fake)).write(brief));
    expect(key).toBe('scriptWriterFailed');
    expect(cause).toContain(`answered ${status}: ${message}`);
  });

  it('gives up on a provider that does not answer in time', async () => {
    fake.answer(stall);
    const started = Date.now();
    const { key, cause } = await failure(openAiScriptWriter(api(fake, { timeoutMs: 300 })).write(brief));
    expect(key).toBe('scriptWriterFailed');
    expect(cause).toContain('within 0.3 s');
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('gives up on a provider that cannot be reached', async () => {
    const { key, cause } = await failure(openAiScriptWriter(api(fake, { baseUrl: 'http://127.0.0.1:9/v1' })).write(brief));
    expect(key).toBe('scriptWriterFailed');
    expect(cause).toContain('failed');
  });

  it.each([
    [
      'content that is not JSON',
      (res: Parameters<typeof completion>[0]) => completion(res, 'Sure! Here are three scripts: …'),
      'did not answer JSON',
    ],
    [
      'JSON cut off at the length limit',
      (res: Parameters<typeof completion>[0]) => completion(res, '{"scripts": [{"lines": ["Still', 'length'),
      'cut off',
    ],
    ['JSON of another shape', (res: Parameters<typeof completion>[0]) => completion(res, '{"ads": ["one", "two"]}'), 'not {"scripts"'],
    [
      'scripts in another language only',
      (res: Parameters<typeof completion>[0]) => completion(res, '{"scripts": [["还在喝温水吗？", "点击链接。"]]}'),
      'no usable script',
    ],
    [
      'a body that is not a chat completion',
      (res: Parameters<typeof completion>[0]) => json(res, 200, { result: 'ok' }),
      'not a chat completion',
    ],
  ])('fails on %s', async (_, answer, expected) => {
    fake.answer((_, res) => answer(res));
    const { key, cause } = await failure(openAiScriptWriter(api(fake)).write(brief));
    expect(key).toBe('scriptWriterFailed');
    expect(cause).toContain(expected);
  });

  it("stops when the task is stopped, with the task's reason rather than a provider failure", async () => {
    fake.answer(stall);
    const stop = new AbortController();
    const writing = openAiScriptWriter(api(fake)).write(brief, stop.signal);
    stop.abort(new Error('cancelled'));
    await expect(writing).rejects.toThrow('cancelled');
  });
});

describe('link-video scripts by the writer the composition root chose', () => {
  const fake = fakeOpenAi();
  const input = { productName: brief.productName, productDescription: brief.productDescription, diyScript: false } as LinkVideoInput;
  const video: VideoSettings = {
    videoLength: 15,
    aspectRatio: '9:16',
    resultNum: 3,
    voiceId: undefined,
    captionId: undefined,
    musicId: undefined,
    language: 'en',
    templateId: undefined,
    presenterId: undefined,
    presenterLayout: undefined,
  };
  const job = (llm: Settings['llm']) => ({
    taskId: 'abcdef12-task',
    ctx: { settings: { llm }, scriptWriter: scriptWriter({ llm }) } as AppContext,
    signal: new AbortController().signal,
  });

  it('uses the LLM when one is configured', async () => {
    answerScripts(
      fake,
      SCRIPTS.map((lines) => ({ lines })),
    );
    const scripts = await scriptsFor(input, video, job(api(fake)));
    expect(scripts.map((s) => s.scriptId)).toEqual(['abcdef12-s1', 'abcdef12-s2', 'abcdef12-s3']);
    expect(scripts[1]?.segments[0]?.segText).toBe(SCRIPTS[1]?.[0]);
  });

  it("writes locally without one, and never asks the LLM for the user's own script", async () => {
    const before = fake.requests.length;
    const local = await scriptsFor(input, video, job(undefined));
    expect(local).toHaveLength(3);
    expect(scriptWriter({ llm: undefined })).toBe(scriptWriter({ llm: undefined }));
    const own = await scriptsFor({ ...input, diyScript: true, diyScriptContent: 'One.\nTwo.' }, video, job(api(fake)));
    expect(own[0]?.segments).toEqual([
      { segId: 1, segText: 'One.' },
      { segId: 2, segText: 'Two.' },
    ]);
    expect(fake.requests.length).toBe(before);
  });

  it("has the local writer say the page's feature bullets and materials, in the page's language", async () => {
    const facts = { features: ['Folds flat into its own pocket.'], materials: ['Ripstop nylon'], language: 'en' };
    const scripts = await scriptsFor({ ...input, productFacts: facts }, { ...video, videoLength: 30 }, job(undefined));
    for (const script of scripts) expect(script.segments.map((s) => s.segText)).toContain('Folds flat into its own pocket.');
    expect(scripts.flatMap((s) => s.segments.map((x) => x.segText))).toContain('It is made of ripstop nylon.');
  });
});
