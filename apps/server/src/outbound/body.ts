/**
 * Reads an answer's body into memory without letting it grow past the size cap: a declared length over
 * the cap is refused before reading, and the count is kept on the decoded bytes, so a small compressed
 * body that inflates to gigabytes (a zip bomb) stops at the cap too. The caller destroys the response
 * whatever the outcome.
 */
import type { IncomingMessage } from 'node:http';
import { createBrotliDecompress, createGunzip } from 'node:zlib';
import { OutboundError } from './errors.js';

export async function readBody(response: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const tooLarge = () => new OutboundError('tooLarge', `The answer is larger than the limit of ${maxBytes} bytes`);
  if (Number(response.headers['content-length']) > maxBytes) throw tooLarge();
  const decoder = decoderFor(response.headers['content-encoding']);
  // pipe() does not pass errors on: a body that breaks off must fail the decoder the loop reads.
  if (decoder) response.on('error', (error) => decoder.destroy(error));
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of decoder ? response.pipe(decoder) : response) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw tooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
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
