import { describe, expect, it } from 'vitest';
import { addAssets, capAssets, importFailed, importSucceeded, submitted, tasksForProduct } from './assets';
import { joinScript, splitScript } from './script';
import { stageRedirect } from './stage';
import { emptyProduct, newProject, type Project, type ProjectAsset } from './types';
import { productProblem } from './validate';

const asset = (fileId: string, format = 'jpg'): ProjectAsset => ({
  fileId,
  fileName: `${fileId}.${format}`,
  fileUrl: `https://cdn/${fileId}`,
  resKey: `k/${fileId}.${format}`,
  format,
});
const many = (n: number, prefix: string, format?: string) => Array.from({ length: n }, (_, i) => asset(`${prefix}${i}`, format));
const video = { resKey: 'p/1.mp4', scriptId: 's1', videoUrl: 'https://cdn/p1', taskId: 't1' };

function project(change: Partial<Project> = {}): Project {
  return { ...newProject('p1', 'https://shop.example/p'), ...change };
}

describe('stage redirects of a restored draft (spec "States and transitions")', () => {
  const preview = { previewVideos: [video], scriptContentList: [] };
  const exports = { exportVideos: [{ resKey: 'e/1.mp4', videoUrl: 'https://cdn/e1', taskId: 'x1' }] };
  it('edit-product moves to video-export when exports exist, else to preview when a preview exists', () => {
    expect(stageRedirect('editProduct', project({ preview, exports }))).toBe('videoExport');
    expect(stageRedirect('editProduct', project({ preview }))).toBe('preview');
    expect(stageRedirect('editProduct', project())).toBeNull();
  });
  it('preview moves to video-export when exports exist, else to edit-product without a preview', () => {
    expect(stageRedirect('preview', project({ preview, exports }))).toBe('videoExport');
    expect(stageRedirect('preview', project({ preview }))).toBeNull();
    expect(stageRedirect('preview', project())).toBe('editProduct');
  });
  it('video-export moves to preview when only a preview exists, else to edit-product when neither does', () => {
    expect(stageRedirect('videoExport', project({ preview }))).toBe('preview');
    expect(stageRedirect('videoExport', project())).toBe('editProduct');
    expect(stageRedirect('videoExport', project({ exports }))).toBeNull();
  });
  it('counts a running generation as its stage, so a reload shows its progress', () => {
    expect(stageRedirect('preview', project({ taskPath: 'link-video', taskStatus: 'IN_PROGRESS' }))).toBeNull();
    expect(stageRedirect('videoExport', project({ preview, taskPath: 'export-video', taskStatus: 'SUBMITTED' }))).toBeNull();
    expect(stageRedirect('preview', project({ taskPath: 'link-video', taskStatus: 'FAILURE' }))).toBe('editProduct');
  });
});

describe('script splitting', () => {
  it('splits by line breaks, drops blank lines and numbers the segments', () => {
    expect(splitScript('Hook line\r\n\n  \nBenefit\nCall to action  ')).toEqual([
      { segId: 0, segText: 'Hook line' },
      { segId: 1, segText: 'Benefit' },
      { segId: 2, segText: 'Call to action' },
    ]);
    expect(splitScript(' \n ')).toEqual([]);
  });
  it('joins segments back in order', () => {
    expect(
      joinScript([
        { segId: 1, segText: 'b' },
        { segId: 0, segText: 'a' },
      ]),
    ).toBe('a\nb');
  });
});

describe('the cap of 30 assets (spec "Validation rules")', () => {
  it('keeps videos first, then fills the remaining slots with images', () => {
    const kept = capAssets(many(25, 'v', 'mp4'), many(10, 'i'));
    expect(kept.productVideos).toHaveLength(25);
    expect(kept.productImages.map((a) => a.fileId)).toEqual(['i0', 'i1', 'i2', 'i3', 'i4']);
    expect(kept.dropped).toBe(5);
    expect(capAssets(many(40, 'v', 'mp4'), many(3, 'i')).productImages).toEqual([]);
  });
  it('adds what fits and says whether some or all were refused', () => {
    const product = { ...emptyProduct(), productImages: many(28, 'i') };
    const partial = addAssets(product, [asset('a'), asset('b'), asset('c', 'mp4')]);
    expect(partial.outcome).toBe('partial');
    expect(partial.product.productVideos.map((a) => a.fileId)).toEqual(['c']);
    expect(partial.product.productImages).toHaveLength(29);
    const full = { ...emptyProduct(), productImages: many(30, 'i') };
    expect(addAssets(full, [asset('x')])).toEqual({ product: full, outcome: 'none' });
    expect(addAssets(emptyProduct(), [asset('x')]).outcome).toBe('added');
  });
});

describe('asset URL task transitions (spec "States and transitions")', () => {
  const pending = { ...asset('url-1'), resKey: null, format: null, fileUrl: 'https://img.example/a' };
  const product = { ...emptyProduct(), productImages: [asset('i0'), pending] };
  it('goes NOT_START, then SUBMITTED with a task id', () => {
    expect(submitted([{ fileId: 'url-1', taskId: null, taskStatus: 'NOT_START' }], 'url-1', 'f9')).toEqual([
      { fileId: 'url-1', taskId: 'f9', taskStatus: 'SUBMITTED' },
    ]);
  });
  it('on success replaces the item with the stored key and URL and removes the task', () => {
    const tasks = [{ fileId: 'url-1', taskId: 'f9', taskStatus: 'SUBMITTED' as const }];
    const done = importSucceeded(product, tasks, 'url-1', { fileId: 'f9', resKey: 'u/f9.png', fileUrl: 'https://cdn/f9' });
    expect(done.tasks).toEqual([]);
    expect(done.product.productImages[1]).toMatchObject({ fileId: 'f9', resKey: 'u/f9.png', fileUrl: 'https://cdn/f9', format: 'png' });
  });
  it('moves a stored video to the videos', () => {
    const done = importSucceeded(product, [], 'url-1', { fileId: 'f9', resKey: 'u/f9.mp4', fileUrl: 'https://cdn/f9' });
    expect(done.product.productVideos.map((a) => a.fileId)).toEqual(['f9']);
    expect(done.product.productImages.map((a) => a.fileId)).toEqual(['i0']);
  });
  it('on failure removes the item and the task', () => {
    const failed = importFailed(product, [{ fileId: 'url-1', taskId: 'f9', taskStatus: 'SUBMITTED' }], 'url-1');
    expect(failed.product.productImages.map((a) => a.fileId)).toEqual(['i0']);
    expect(failed.tasks).toEqual([]);
  });
  it('drops tasks for files no longer in a replaced product', () => {
    expect(
      tasksForProduct(
        [
          { fileId: 'gone', taskId: null, taskStatus: 'NOT_START' },
          { fileId: 'url-1', taskId: null, taskStatus: 'NOT_START' },
        ],
        product,
      ),
    ).toEqual([{ fileId: 'url-1', taskId: null, taskStatus: 'NOT_START' }]);
  });
});

describe('what a video needs (spec "Validation rules")', () => {
  it('needs at least one asset, a name and, for an own script, some script', () => {
    expect(productProblem(project({ product: emptyProduct() }))).toBe('product.noAssets');
    const withAsset = { ...emptyProduct(), productImages: [asset('i')] };
    expect(productProblem(project({ product: withAsset }))).toBe('product.nameRequired');
    expect(productProblem(project({ product: { ...withAsset, productName: 'Mug', scriptSource: 'own', diyScriptContent: '\n ' } }))).toBe(
      'editor.scriptRequired',
    );
    expect(productProblem(project({ product: { ...withAsset, productName: 'Mug' } }))).toBeNull();
  });
});
