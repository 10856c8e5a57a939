import { TEMPLATE_IDS } from '@reelsmith/contract';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ok } from '../../../test/renderApp';
import { openProjectPage, resetProjectPages } from '../project/pageTesting';
import { emptyProduct, newProject } from '../project/types';

afterEach(resetProjectPages);

const exported = (n: number, previewNumber?: number) => ({
  resKey: `e${n}`,
  videoUrl: `https://cdn/e${n}.mp4`,
  taskId: `t${n}`,
  templateId: 'clean-studio' as const,
  fileName: `Mug-${previewNumber ?? n}-15s.mp4`,
  seconds: 15,
  aspectRatio: '9:16' as const,
  ...(previewNumber === undefined ? {} : { previewNumber }),
});

function openExports(exportVideos: ReturnType<typeof exported>[]) {
  const project = {
    ...newProject('p1', 'https://shop.example/mug'),
    product: { ...emptyProduct(), productName: 'Mug' },
    taskId: 't9',
    taskPath: 'export-video' as const,
    taskStatus: 'SUCCESS' as const,
    exports: { exportVideos },
  };
  return openProjectPage('/tools/link-to-video/video-export', project, {
    '/link-video/templates': ok(TEMPLATE_IDS.map((templateId) => ({ templateId, previewUrl: `https://thumbs/${templateId}.jpg` }))),
    '/points/account': ok({ totalPoints: 100, availablePoints: 100, usedPoints: 0, expiredPoints: 0, expiring: [] }),
  });
}

describe('export page', () => {
  it('labels an export with the number of the preview it was made from, as its file name does', async () => {
    openExports([exported(1, 2)]);
    const card = await screen.findByRole('region', { name: 'Video 2' });
    expect(card.querySelector('a[download]')?.getAttribute('download')).toBe('Mug-2-15s.mp4');
    expect(screen.queryByRole('region', { name: 'Video 1' })).toBeNull();
  });

  it('numbers exports made before the preview number was kept by their place', async () => {
    openExports([exported(1), exported(2)]);
    expect(await screen.findByRole('region', { name: 'Video 1' })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Video 2' })).toBeTruthy();
  });
});
