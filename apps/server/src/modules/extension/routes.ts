import { EXTENSION_DOWNLOAD_PATH } from '@reelsmith/contract';
import { AppError } from '../../errors.js';
import { defineModule } from '../../http/module.js';
import { type ExtensionDownload, extensionDownload } from './download.js';

/**
 * The extension's download (decision "Extension download"): a link the user follows, so it skips the web app's
 * header checks, and public, as the landing page that mentions the extension is. The zip is made once per process
 * from the build the server found (a rebuilt extension is served after a restart, like the web app).
 */
export const extensionModule = defineModule((api, { ctx }) => {
  let made: Promise<ExtensionDownload | null> | undefined;
  api.get(EXTENSION_DOWNLOAD_PATH, { config: { skipClientChecks: true } }, async (_req, reply) => {
    made ??= extensionDownload(ctx.settings);
    const download = await made.catch(() => null);
    if (!download) {
      made = undefined;
      throw new AppError('notFound');
    }
    return reply
      .type('application/zip')
      .header('content-disposition', `attachment; filename="${download.fileName}"`)
      .header('cache-control', 'no-cache')
      .send(download.zip);
  });
});
