/**
 * Reads an answer's body without letting it grow past the size cap: a declared length over the cap is refused
 * before reading, and the count is kept on the decoded bytes, so a small compressed body that inflates to
 * gigabytes (a zip bomb) stops at the cap too. A page is read into memory (`readBody`); a media file is streamed to
 * a file (`saveBody`), so an import holds a few chunks at a time however large the file (decision "Import limits").
 * The caller destroys the response whatever the outcome.
 */
import { createWriteStream } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress, createGunzip } from 'node:zlib';
import { OutboundError } from './errors.js';

export async function readBody(response: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  await pipeline(decoded(response, maxBytes), capped(maxBytes), async (body: AsyncIterable<Buffer>) => {
    for await (const chunk of body) chunks.push(chunk);
  });
  return Buffer.concat(chunks);
}

/** Writes the body to a new file at `path` (which must not exist) and answers its size; past the cap it fails. */
export async function saveBody(response: IncomingMessage, maxBytes: number, path: string): Promise<number> {
  const cap = capped(maxBytes);
  await pipeline(decoded(response, maxBytes), cap, createWriteStream(path, { flags: 'wx' }));
  return cap.seen;
}

const tooLarge = (maxBytes: number) => new OutboundError('tooLarge', `The answer is larger than the limit of ${maxBytes} bytes`);

/** The body as sent, decoded; refuses at once a declared length over the cap. */
function decoded(response: IncomingMessage, maxBytes: number): Readable {
  if (Number(response.headers['content-length']) > maxBytes) throw tooLarge(maxBytes);
  const decoder = decoderFor(response.headers['content-encoding']);
  if (!decoder) return response;
  // pipe() does not pass errors on: a body that breaks off must fail the decoder that is read.
  response.on('error', (error) => decoder.destroy(error));
  return response.pipe(decoder);
}

/** Passes bytes on until there are more than `maxBytes`, then fails; `seen` counts them. */
function capped(maxBytes: number): Transform & { seen: number } {
  const cap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      cap.seen += chunk.length;
      done(cap.seen > maxBytes ? tooLarge(maxBytes) : null, chunk);
    },
  }) as Transform & { seen: number };
  cap.seen = 0;
  return cap;
}

function decoderFor(encoding = 'identity') {
  switch (encoding.trim().toLowerCase()) {
    case 'identity':
    case '':
      return undefined;
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'br':
      return createBrotliDecompress();
    default:
      throw new OutboundError('network', `The answer uses an unsupported content encoding (${encoding})`);
  }
}
