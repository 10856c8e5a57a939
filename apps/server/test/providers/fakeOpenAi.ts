// A local server that speaks OpenAI's HTTP API (chat completions, audio speech) the way the real one does, with
// the answers each test chooses: JSON bodies, error envelopes, stalls. Listens on 127.0.0.1 only.
import { execFileSync } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { locateTools } from '@reelsmith/media';
import { afterAll, expect } from 'vitest';
import { AppError } from '../../src/errors.js';
import type { ProviderSettings } from '../../src/settings.js';

export interface FakeRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

export type Handler = (req: FakeRequest, res: ServerResponse) => void;

export interface FakeOpenAi {
  /** The API's base URL, like https://api.openai.com/v1. */
  baseUrl: string;
  requests: FakeRequest[];
  /** What the next requests get (the last handler set stays until replaced). */
  answer(handler: Handler): void;
}

/** Starts a fake for the file's tests and stops it after them. */
export function fakeOpenAi(): FakeOpenAi {
  const requests: FakeRequest[] = [];
  let handler: Handler = (_, res) => error(res, 500, 'no answer set');
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const request = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: text ? JSON.parse(text) : {} };
      requests.push(request);
      handler(request, res);
    });
  }).listen(0, '127.0.0.1');
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });
  const fake: FakeOpenAi = {
    get baseUrl() {
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    },
    requests,
    answer(next) {
      handler = next;
    },
  };
  return fake;
}

export const api = (fake: FakeOpenAi, extra: Partial<ProviderSettings> = {}): ProviderSettings => ({
  baseUrl: fake.baseUrl,
  apiKey: 'sk-test',
  model: 'gpt-test',
  timeoutMs: 5_000,
  ...extra,
});

export function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** OpenAI's error envelope. */
export function error(res: ServerResponse, status: number, message: string) {
  json(res, status, { error: { message, type: 'invalid_request_error', param: null, code: null } });
}

/** A chat completion whose message content is `content`, as OpenAI answers it. */
export function completion(res: ServerResponse, content: string, finishReason = 'stop') {
  json(res, 200, {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: 'gpt-test',
    choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, finish_reason: finishReason }],
    usage: { prompt_tokens: 100, completion_tokens: 100, total_tokens: 200 },
  });
}

/** Accepts the request and never answers: a provider that hangs. */
export const stall: Handler = () => {};

/**
 * Real audio of `seconds`, made by ffmpeg: WAV written to a pipe carries no length in its header, as OpenAI's
 * streamed WAV does; MP3 is what some compatible servers send whatever format was asked for.
 */
export function tone(seconds: number, format: 'wav' | 'mp3' = 'wav'): Buffer {
  const codec = format === 'wav' ? ['-c:a', 'pcm_s16le', '-f', 'wav'] : ['-c:a', 'libmp3lame', '-f', 'mp3'];
  return execFileSync(locateTools().ffmpeg, [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=330:sample_rate=24000:duration=${seconds}`,
    ...codec,
    '-',
  ]);
}

/** What a provider's AppError tells the user (its key) and keeps for the log (its cause). */
export async function failure(promise: Promise<unknown>): Promise<{ key: string; cause: string }> {
  const thrown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(thrown).toBeInstanceOf(AppError);
  return { key: (thrown as AppError).key, cause: String((thrown as AppError).cause) };
}
