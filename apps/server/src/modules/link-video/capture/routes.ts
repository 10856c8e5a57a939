/**
 * The page the browser extension captured (`POST /link-video/page/upload`): the rendered HTML of a product page
 * as the user saw it, which shops that refuse servers (captchas, sign-in walls) still show a person. It is not an
 * asset (no content checks of a picture apply, it never shows in the library), so it does not go through the
 * files module's upload formats: it is stored as is under the caller's own prefix and read only by link analysis,
 * which checks that prefix again.
 */
import { CAPTURED_PAGE_MAX_BYTES, linkVideoPageUpload } from '@reelsmith/contract';
import { AppError } from '../../../errors.js';
import { defineModule } from '../../../http/module.js';
import { capturedPageKey } from '../../files/storage/keys.js';
import { CAPTURED_PAGE_TYPE } from '../analysis/pageSource.js';

/** JSON escaping of quotes and line breaks makes the body larger than the page; past this it is refused unread. */
const BODY_LIMIT_BYTES = 2 * CAPTURED_PAGE_MAX_BYTES;

export const captureModule = defineModule((_api, { route, ctx }) => {
  route(
    linkVideoPageUpload,
    async ({ user, body }) => {
      const html = Buffer.from(body.html, 'utf8');
      if (html.length > CAPTURED_PAGE_MAX_BYTES) {
        throw new AppError('pageCaptureTooLarge', { limitMb: CAPTURED_PAGE_MAX_BYTES / (1024 * 1024) });
      }
      const resKey = capturedPageKey(user.userId);
      await ctx.storage.put(resKey, html, { contentType: CAPTURED_PAGE_TYPE, size: html.length });
      return { resKey };
    },
    { fromExtension: true, bodyLimit: BODY_LIMIT_BYTES },
  );
});
