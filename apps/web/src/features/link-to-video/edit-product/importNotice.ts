import type { MediaImportReport } from '@reelsmith/contract';
import type { TFunction } from 'i18next';

/**
 * What to tell about the pictures an analysis could not import (decision "Media import report"): how many and why,
 * or that the page had none while the product has none; null when there is nothing to tell.
 */
export function importNotice(report: MediaImportReport | null, hasAssets: boolean, t: TFunction<'link-to-video'>): string | null {
  if (!report) return null;
  const { imagesFailed, videosFailed } = report;
  const count = imagesFailed + videosFailed;
  if (count > 0) {
    const reason = t(`imports.reasons.${report.failure ?? 'unusable'}`);
    const key = imagesFailed > 0 && videosFailed > 0 ? 'mediaFailed' : imagesFailed > 0 ? 'picturesFailed' : 'videosFailed';
    return t(`imports.${key}`, { count, reason });
  }
  return !hasAssets && report.imagesFound + report.videosFound === 0 ? t('imports.noPictures') : null;
}
