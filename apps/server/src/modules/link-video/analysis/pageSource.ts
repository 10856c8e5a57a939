/**
 * The HTML link analysis reads: the product page fetched through the one SSRF-safe fetcher, or, when the browser
 * extension captured the page as the user saw it (`resKey`), that stored copy, which also works for pages that
 * answer servers with a captcha or a sign-in wall.
 */
import type { Readable } from 'node:stream';
import { CAPTURED_PAGE_MAX_BYTES } from '@reelsmith/contract';
import type { AppContext } from '../../../context.js';
import { AppError } from '../../../errors.js';
import { OutboundError, refusalOf } from '../../../outbound/errors.js';
import { createFetcher } from '../../../outbound/fetcher.js';
import { isUsersKey } from '../../files/storage/keys.js';
import { ObjectMissingError } from '../../files/storage/storage.js';

/** Amazon's product pages run to 2–3 MB; past this it is not a product page a person reads. The extension's cap is the same. */
export const MAX_PAGE_BYTES = CAPTURED_PAGE_MAX_BYTES;
/** How a captured page is stored: the text the extension read, as UTF-8. */
export const CAPTURED_PAGE_TYPE = 'text/html; charset=utf-8';

export interface PageSource {
  userId: string;
  productLink: string;
  resKey?: string | undefined;
}

export interface LoadedPage {
  body: Buffer;
  contentType: string | undefined;
  /** What the page's relative links resolve against: where the last redirect led, or the product link. */
  url: string;
}

export function loadPage(ctx: AppContext, source: PageSource): Promise<LoadedPage> {
  return source.resKey ? readCapture(ctx, source.userId, source.resKey, source.productLink) : fetchPage(ctx, source.productLink);
}

/** Refuses a key that is not under the user's own prefix: nobody reads another user's captures. */
export function checkCaptureKey(userId: string, resKey: string) {
  if (!isUsersKey(userId, resKey)) throw new AppError('pageCaptureMissing');
}

async function fetchPage(ctx: AppContext, productLink: string): Promise<LoadedPage> {
  const fetchUrl = createFetcher({ allowHosts: ctx.settings.outboundAllowHosts, maxBytes: MAX_PAGE_BYTES });
  try {
    const page = await fetchUrl(productLink);
    return { body: page.body, contentType: page.contentType, url: page.finalUrl };
  } catch (error) {
    throw error instanceof OutboundError ? pageError(error) : error;
  }
}

async function readCapture(ctx: AppContext, userId: string, resKey: string, productLink: string): Promise<LoadedPage> {
  checkCaptureKey(userId, resKey);
  try {
    // The extension's page is stored as UTF-8 (capture/routes.ts): said here, as the page's own transport would.
    return { body: await readAll(await ctx.storage.read(resKey)), contentType: CAPTURED_PAGE_TYPE, url: productLink };
  } catch (error) {
    throw error instanceof ObjectMissingError ? new AppError('pageCaptureMissing') : error;
  }
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > MAX_PAGE_BYTES) {
      stream.destroy();
      throw tooLarge();
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

const tooLarge = () => new AppError('pageTooLarge', { limitMb: MAX_PAGE_BYTES / (1024 * 1024) });

/** Why the page could not be read, in the user's words. */
const pageError = (error: OutboundError): AppError =>
  refusalOf(error, {
    blocked: 'pageBlocked',
    timedOut: 'pageTimedOut',
    httpError: 'pageHttpError',
    unreachable: 'pageUnreachable',
    tooLarge,
  });
