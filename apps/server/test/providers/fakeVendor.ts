/** A vendor's HTTP API on 127.0.0.1 for adapter tests: handlers by method and path, every request recorded. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { locateTools } from '@reelsmith/media';
import sharp from 'sharp';
import { afterAll, beforeAll } from 'vitest';
import type { GenerationJob } from '../../src/providers/provider.js';

export interface Recorded {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export type Handler = (req: Recorded, res: ServerResponse) => unknown;

export function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** A real PNG, as a vendor's storage would serve it. */
export const outputPng = () =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 10, g: 200, b: 90 } } })
    .png()
    .toBuffer();

export function fakeVendor() {
  const vendor = { base: '', requests: [] as Recorded[], handlers: new Map<string, Handler>() };
  let server: Server;
  beforeAll(async () => {
    server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const path = (req.url ?? '').split('?')[0] as string;
      const recorded = { method: req.method ?? '', path, headers: req.headers, body: Buffer.concat(chunks) };
      vendor.requests.push(recorded);
      const handler = vendor.handlers.get(`${req.method} ${path}`);
      if (!handler) return json(res, 404, { detail: 'Not found' });
      await handler(recorded, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    vendor.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return vendor;
}

/** A job as a task hands it: a work directory, a signal and the stages it reported. */
export function testJob(signal: AbortSignal = new AbortController().signal) {
  const workDir = mkdtempSync(join(tmpdir(), 'reelsmith-vendor-'));
  const stages: string[] = [];
  const job: GenerationJob = { workDir, signal, progress: async (stage) => void stages.push(stage) };
  return { job, stages, cleanup: () => rmSync(workDir, { recursive: true, force: true }) };
}

/** How long a sound sent as a data URI lasts, as ffprobe reads it. */
export function audioSeconds(audioDataUri: string): number {
  const dir = mkdtempSync(join(tmpdir(), 'reelsmith-talking-fake-'));
  try {
    const audio = join(dir, 'voice');
    writeFileSync(audio, Buffer.from(audioDataUri.slice(audioDataUri.indexOf(',') + 1), 'base64'));
    const probed = execFileSync(locateTools().ffprobe, ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', audio]);
    return Number(probed.toString().trim());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * What a talking model answers for a voice sent as a data URI: an MP4 as long as that voice (a test pattern at the
 * model's own size and rate, a little longer than asked, as models round up), so the join is tried for real.
 */
export function talkingClipFor(audioDataUri: string): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'reelsmith-talking-fake-'));
  try {
    const clip = join(dir, 'clip.mp4');
    const seconds = audioSeconds(audioDataUri) + 0.2;
    execFileSync(locateTools().ffmpeg, [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      `testsrc=size=480x854:rate=30:duration=${seconds.toFixed(3)}`,
      '-pix_fmt',
      'yuv420p',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      clip,
    ]);
    return readFileSync(clip);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
