import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ProjectSummary, projectSummaryKey } from '../../../shared/api/projectSummary';
import { appQueryClient, freshQueryClient } from '../../../shared/api/queryClient';
import { ok, stubApi } from '../../../test/renderApp';
import { SERVER_SAVE_DELAY_MS } from './controller';
import { draftKey, serializeDraft } from './draft';
import { closeProject, openProject, projectController } from './open';
import { stageRedirect } from './stage';
import { currentProject, updateProject } from './store';
import { emptyProduct, newProject, type Project } from './types';

const summary = {
  projectId: 'p1',
  projectName: 'Server name',
  productLink: 'https://shop.example/p',
  coverUrl: null,
  taskStatus: null,
  createTime: '',
  updateTime: '',
};
const draftWith = (change: Partial<Project>) => ({ ...newProject('p1', 'https://shop.example/p'), ...change });
const stored = { fileId: 'f1', fileName: 'a.jpg', fileUrl: 'https://old/a', resKey: 'k/a.jpg', format: 'jpg' };

// Files share modules (isolate: false): a page test before this one may have left a project open.
beforeEach(() => {
  closeProject();
  freshQueryClient();
});

/** The project's name, where the app holds it: its summary query. */
const summaryName = () => appQueryClient().getQueryData<ProjectSummary>(projectSummaryKey('p1'))?.projectName;

afterEach(() => {
  closeProject();
  localStorage.clear();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** The open project's controller, which these tests always have. */
function controller() {
  const open = projectController();
  if (!open) throw new Error('no project is open');
  return open;
}

describe('draft restore', () => {
  it('loads the draft from its URL, takes the name from the server (not the draft) and renews the links', async () => {
    // A draft written when it still carried the project's name.
    const draft = { ...draftWith({ product: { ...emptyProduct(), productImages: [stored] } }), projectName: 'Old name' };
    const calls = stubApi({
      '/project/getProjectById': ok(summary),
      '/project/getDraftFileUrl': ok('http://localhost/files/draft.json'),
      '/files/draft.json': { body: draft },
      '/file/url/transfer': (body) => ok(Object.fromEntries((body as { data: string[] }).data.map((key) => [key, `https://fresh/${key}`]))),
    });
    expect(await openProject('p1')).toBe(true);
    expect(summaryName()).toBe('Server name');
    expect(currentProject()).not.toHaveProperty('projectName');
    expect(currentProject()?.product?.productImages[0]?.fileUrl).toBe('https://fresh/k/a.jpg');
    expect(calls).toContain('/file/url/transfer');
  });

  it('falls back to the local copy when the server has none', async () => {
    localStorage.setItem(draftKey('p1'), serializeDraft(draftWith({ productLink: 'https://local.example/p' })));
    stubApi({ '/project/getProjectById': ok(summary), '/project/getDraftFileUrl': ok(null) });
    expect(await openProject('p1')).toBe(true);
    expect(currentProject()?.productLink).toBe('https://local.example/p');
  });

  it('falls back to the local copy when the draft file cannot be read', async () => {
    localStorage.setItem(draftKey('p1'), serializeDraft(draftWith({ productLink: 'https://local.example/p' })));
    stubApi({
      '/project/getProjectById': ok(summary),
      '/project/getDraftFileUrl': ok('http://localhost/files/draft.json'),
      '/files/draft.json': { status: 500, body: 'oops' },
    });
    expect(await openProject('p1')).toBe(true);
    expect(currentProject()?.productLink).toBe('https://local.example/p');
  });

  it('prefers a local copy whose changes never reached the server, and sends it', async () => {
    const saves: string[] = [];
    let offline = false;
    const api = {
      '/project/getProjectById': ok(summary),
      '/project/getDraftFileUrl': ok('http://localhost/files/draft.json'),
      '/files/draft.json': { body: draftWith({ productLink: 'https://server.example/p' }) },
      '/project/saveDraftFile': (body: unknown) => {
        if (offline) return { status: 503, body: { code: 503, message: 'Service unavailable', data: null } };
        saves.push((body as { draftContent: string }).draftContent);
        return ok(true);
      },
    };
    stubApi(api);
    await openProject('p1');
    // The page is left, and the save that goes as it is left does not reach the server: only the local copy has
    // the change.
    vi.useFakeTimers();
    offline = true;
    controller().patchProduct({ productName: 'Edited' });
    closeProject();
    await vi.advanceTimersByTimeAsync(0);
    offline = false;
    expect(saves).toEqual([]);
    expect(await openProject('p1')).toBe(true);
    expect(currentProject()?.product?.productName).toBe('Edited');
    await vi.advanceTimersByTimeAsync(0);
    expect(JSON.parse(saves.at(-1) ?? '{}').product.productName).toBe('Edited');
    // Sent, the local copy no longer overrides the server's.
    closeProject();
    expect(await openProject('p1')).toBe(true);
    expect(currentProject()?.productLink).toBe('https://server.example/p');
  });

  it('starts a fresh project when there is no draft at all, opened so its page applies the stage redirects', async () => {
    stubApi({ '/project/getProjectById': ok(summary), '/project/getDraftFileUrl': ok(null) });
    expect(await openProject('p1')).toBe(true);
    expect(currentProject()).toMatchObject({ projectId: 'p1', productLink: 'https://shop.example/p' });
    expect(summaryName()).toBe('Server name');
  });
});

describe('a project without a draft (made by a batch or the public API)', () => {
  const analysis = {
    taskId: 'a1',
    status: 'SUCCESS',
    productName: 'Aurora Insulated Water Bottle',
    productDescription: 'Cold for 24 hours.',
    productImages: [{ fileId: 'img1', fileUrl: 'https://old/img1.jpg' }],
    productVideos: [],
    productOffer: { price: '29.90', currency: 'USD' },
    productBrand: 'Aurora',
    productRating: { value: 4.5, count: 120 },
    productFacts: { features: ['Leak-proof lid'] },
  };
  const choices = {
    productName: 'Aurora bottle',
    productDescription: 'Cold for 24 hours.',
    diyScript: false,
    editorConfig: { videoLength: 30, aspectRatio: '1:1', resultNum: 1, templateId: 'bold' },
  };
  const video = (scriptId: string, taskId: string) => ({ resKey: `k/${scriptId}.mp4`, scriptId, videoUrl: 'https://old/v.mp4', taskId });
  const task = (taskId: string, kind: string, status: string, extra: object = {}) => ({ taskId, kind, status, createTime: '', ...extra });
  /** The service's answers for a project whose tasks are `tasks` (newest first) and have these results. */
  const serverWith = (tasks: object[], results: Record<string, object>) => ({
    '/project/getProjectById': ok({ ...summary, projectName: 'Aurora bottle' }),
    '/project/getDraftFileUrl': ok(null),
    '/project/getProjectTasks': (_body: unknown, query: URLSearchParams) => ok(query.get('projectId') === 'p1' ? tasks : []),
    ...Object.fromEntries(
      ['link-analysis', 'link-video', 'script-update', 'export-video'].map((kind) => [
        `/task/v1/${kind}/query`,
        (_body: unknown, query: URLSearchParams) => ok(results[query.get('taskId') ?? '']),
      ]),
    ),
    '/file/url/transfer': (body: unknown) =>
      ok(Object.fromEntries((body as { data: string[] }).data.map((key) => [key, `https://fresh/${key}`]))),
    '/assert/urls': (body: unknown) =>
      ok(Object.fromEntries((body as { fileIds: string[] }).fileIds.map((id) => [id, `https://fresh/file/${id}`]))),
  });

  it('rebuilds the product, the previews and the exports from its tasks, and resumes the export still running', async () => {
    const calls = stubApi(
      serverWith(
        [
          task('e2', 'export-video', 'IN_PROGRESS'),
          task('e1', 'export-video', 'SUCCESS'),
          task('u1', 'script-update', 'SUCCESS', { scriptId: 's2' }),
          task('v1', 'link-video', 'SUCCESS', { choices }),
          task('a1', 'link-analysis', 'SUCCESS'),
          task('a0', 'link-analysis', 'FAILURE'),
        ],
        {
          a1: analysis,
          v1: {
            taskId: 'v1',
            status: 'SUCCESS',
            previewVideos: [video('s1', 'v1'), video('s2', 'v1')],
            scriptContentList: [
              { scriptId: 's1', segments: [{ segId: 0, segText: 'One' }] },
              { scriptId: 's2', segments: [{ segId: 0, segText: 'Two' }] },
            ],
          },
          u1: {
            taskId: 'u1',
            status: 'SUCCESS',
            previewVideos: [video('s3', 'u1')],
            scriptContentList: [{ scriptId: 's3', segments: [{ segId: 0, segText: 'Two, edited' }] }],
          },
          e1: { taskId: 'e1', status: 'SUCCESS', exportVideos: [{ resKey: 'k/e1.mp4', videoUrl: 'https://old/e1.mp4', taskId: 'e1' }] },
          e2: { taskId: 'e2', status: 'IN_PROGRESS' },
        },
      ),
    );
    expect(await openProject('p1')).toBe(true);
    const project = currentProject();
    expect(project?.product).toMatchObject({
      productName: 'Aurora bottle',
      productDescription: 'Cold for 24 hours.',
      productImages: [{ fileId: 'img1', fileUrl: 'https://fresh/file/img1' }],
      productPrice: '29.90',
      productCurrency: 'USD',
      productBrand: 'Aurora',
      productRating: { value: 4.5, count: 120 },
      productFacts: { features: ['Leak-proof lid'] },
      scriptSource: 'ai',
    });
    expect(project?.editorConfig).toEqual(choices.editorConfig);
    // The script update replaced the preview it rewrote, in its place.
    expect(project?.preview?.previewVideos.map((v) => [v.scriptId, v.videoUrl])).toEqual([
      ['s1', 'https://fresh/k/s1.mp4'],
      ['s3', 'https://fresh/k/s3.mp4'],
    ]);
    expect(project?.preview?.scriptContentList.find((item) => item.scriptId === 's3')?.segments[0]?.segText).toBe('Two, edited');
    expect(project?.editedScriptId).toBe('s3');
    expect(project?.exports?.exportVideos.map((v) => v.videoUrl)).toEqual(['https://fresh/k/e1.mp4']);
    expect(project).toMatchObject({ taskId: 'e2', taskPath: 'export-video', taskStatus: 'IN_PROGRESS', exportTaskIds: ['e1', 'e2'] });
    // It opens where its work got to, and the export still rendering is followed.
    expect(stageRedirect('preview', project as Project)).toBe('videoExport');
    await vi.waitFor(() => expect(calls).toContain('/task/v1/export-video/query?taskId=e2'));
  });

  it('opens a batch row of previews only on its preview page, and its first change saves it as a draft', async () => {
    const saves: string[] = [];
    stubApi({
      ...serverWith([task('v1', 'link-video', 'SUCCESS', { choices }), task('a1', 'link-analysis', 'SUCCESS')], {
        a1: analysis,
        v1: { taskId: 'v1', status: 'SUCCESS', previewVideos: [video('s1', 'v1')], scriptContentList: [] },
      }),
      '/project/saveDraftFile': (body) => {
        saves.push((body as { draftContent: string }).draftContent);
        return ok(true);
      },
    });
    expect(await openProject('p1')).toBe(true);
    const project = currentProject() as Project;
    expect(project).toMatchObject({ taskPath: 'link-video', taskStatus: 'SUCCESS', exports: null });
    expect(summaryName()).toBe('Aurora bottle');
    expect(stageRedirect('preview', project)).toBeNull();
    expect(stageRedirect('editProduct', project)).toBe('preview');
    expect(saves).toEqual([]);
    vi.useFakeTimers();
    controller().patchProduct({ productName: 'Aurora bottle, 750 ml' });
    await vi.advanceTimersByTimeAsync(SERVER_SAVE_DELAY_MS);
    const draft = JSON.parse(saves.at(-1) ?? '{}') as Project;
    expect(draft.product?.productName).toBe('Aurora bottle, 750 ml');
    expect(draft.preview?.previewVideos[0]?.scriptId).toBe('s1');
  });

  it('takes the script a video was made with: the description, or the text the caller wrote', async () => {
    const own = { ...choices, diyScript: true, diyScriptContent: 'Line one\nLine two' };
    stubApi(serverWith([task('v1', 'link-video', 'FAILURE', { choices: own }), task('a1', 'link-analysis', 'SUCCESS')], { a1: analysis }));
    expect(await openProject('p1')).toBe(true);
    expect(currentProject()?.product).toMatchObject({ scriptSource: 'own', diyScriptContent: 'Line one\nLine two' });
    // Its video failed: no preview, so it belongs on edit-product.
    expect(stageRedirect('preview', currentProject() as Project)).toBe('editProduct');
    closeProject();
    stubApi(
      serverWith(
        [
          task('v1', 'link-video', 'SUCCESS', { choices: { ...own, diyScriptContent: own.productDescription } }),
          task('a1', 'link-analysis', 'SUCCESS'),
        ],
        {
          a1: analysis,
        },
      ),
    );
    expect(await openProject('p1')).toBe(true);
    expect(currentProject()?.product?.scriptSource).toBe('description');
  });
});

describe('draft saving', () => {
  it('writes changes locally at once and to the server once they settle', async () => {
    const saves: unknown[] = [];
    stubApi({
      '/project/getProjectById': ok(summary),
      '/project/getDraftFileUrl': ok(null),
      '/project/saveDraftFile': (body) => {
        saves.push(body);
        return ok(true);
      },
    });
    await openProject('p1');
    vi.useFakeTimers();
    controller().patchProduct({ productName: 'Mug' });
    controller().patchProduct({ productName: 'Mug 2' });
    expect(JSON.parse(localStorage.getItem(draftKey('p1')) ?? '{}').product.productName).toBe('Mug 2');
    expect(saves).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(SERVER_SAVE_DELAY_MS);
    expect(saves).toHaveLength(1);
    expect(JSON.parse((saves[0] as { draftContent: string }).draftContent).product.productName).toBe('Mug 2');
  });

  it('does not save a change that leaves the stored copy as it was', async () => {
    const saves: unknown[] = [];
    stubApi({
      '/project/getProjectById': ok(summary),
      '/project/getDraftFileUrl': ok(null),
      '/project/saveDraftFile': (body) => {
        saves.push(body);
        return ok(true);
      },
    });
    await openProject('p1');
    vi.useFakeTimers();
    controller().patchProduct({ productName: 'Mug' });
    await vi.advanceTimersByTimeAsync(SERVER_SAVE_DELAY_MS);
    updateProject('p1', (project) => ({ ...project }));
    await vi.advanceTimersByTimeAsync(SERVER_SAVE_DELAY_MS);
    expect(saves).toHaveLength(1);
  });
});

describe('asset URL import', () => {
  beforeEach(() => vi.useFakeTimers());

  it('submits, polls every 2 s and puts the stored file in place of the link', async () => {
    let polls = 0;
    stubApi({
      '/project/getProjectById': ok(summary),
      '/project/getDraftFileUrl': ok(null),
      '/project/saveDraftFile': ok(true),
      '/assert/url-task': (body) => {
        if (body) return ok({ fileId: 'f9' });
        polls++;
        return ok(
          polls < 3
            ? { status: 1, fileKey: null, fileUrl: null, errorMsg: null }
            : { status: 4, fileKey: 'u/f9.png', fileUrl: 'https://cdn/f9', errorMsg: null },
        );
      },
    });
    await openProject('p1');
    controller().importAssetFromUrl('https://img.example/pic');
    expect(currentProject()?.assetUrlTasks).toEqual([expect.objectContaining({ taskStatus: 'NOT_START', taskId: null })]);
    await vi.advanceTimersByTimeAsync(0);
    expect(currentProject()?.assetUrlTasks).toEqual([expect.objectContaining({ taskStatus: 'SUBMITTED', taskId: 'f9' })]);
    await vi.advanceTimersByTimeAsync(4000);
    expect(polls).toBe(3);
    expect(currentProject()?.assetUrlTasks).toEqual([]);
    expect(currentProject()?.product?.productImages).toEqual([
      { fileId: 'f9', fileName: 'pic', fileUrl: 'https://cdn/f9', resKey: 'u/f9.png', format: 'png' },
    ]);
  });

  it('removes the item and its task when the import fails', async () => {
    stubApi({
      '/project/getProjectById': ok(summary),
      '/project/getDraftFileUrl': ok(null),
      '/project/saveDraftFile': ok(true),
      '/assert/url-task': (body) =>
        body ? ok({ fileId: 'f9' }) : ok({ status: -1, fileKey: null, fileUrl: null, errorMsg: 'Unreachable' }),
    });
    await openProject('p1');
    controller().importAssetFromUrl('https://img.example/pic.jpg');
    await vi.advanceTimersByTimeAsync(0);
    expect(currentProject()?.assetUrlTasks).toEqual([]);
    expect(currentProject()?.product?.productImages).toEqual([]);
  });
});

describe('script update', () => {
  it("sends the quick editor's voice, subtitle style and music with the edited script", async () => {
    const submits: unknown[] = [];
    const video = { resKey: 'u/v1.mp4', scriptId: 's1', videoUrl: 'https://cdn/v1', taskId: 't1' };
    stubApi({
      '/project/getProjectById': ok(summary),
      '/project/getDraftFileUrl': ok('http://localhost/files/draft.json'),
      '/files/draft.json': { body: draftWith({ preview: { previewVideos: [video], scriptContentList: [] }, editedScriptId: 's1' }) },
      '/project/saveDraftFile': ok(true),
      '/task/v1/script-update/submit': (body) => {
        submits.push(body);
        return ok({ taskId: 't2' });
      },
    });
    await openProject('p1');
    controller().patchEditorConfig({ voiceId: 'v-en-2', captionId: 'bold', musicId: 'pad' });
    await controller().submitScriptUpdate([{ segId: 0, segText: 'Hello' }]);
    expect(submits).toEqual([
      expect.objectContaining({ taskId: 't1', scriptId: 's1', voiceId: 'v-en-2', captionId: 'bold', musicId: 'pad' }),
    ]);
    expect(currentProject()).toMatchObject({ taskPath: 'script-update', taskId: 't2', taskStatus: 'SUBMITTED' });
  });
});
