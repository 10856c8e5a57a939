import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ok, stubApi } from '../../../test/renderApp';
import { SERVER_SAVE_DELAY_MS } from './controller';
import { draftKey, serializeDraft } from './draft';
import { closeProject, openProject, projectController } from './open';
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
const draftWith = (change: Partial<Project>) => ({ ...newProject('p1', 'https://shop.example/p', 'Old name'), ...change });
const stored = { fileId: 'f1', fileName: 'a.jpg', fileUrl: 'https://old/a', resKey: 'k/a.jpg', format: 'jpg' };

// Files share modules (isolate: false): a page test before this one may have left a project open.
beforeEach(() => closeProject());

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
  it('loads the draft from its URL, takes the name from the server and renews the links', async () => {
    const draft = draftWith({ product: { ...emptyProduct(), productImages: [stored] } });
    const calls = stubApi({
      '/project/getProjectById': ok(summary),
      '/project/getDraftFileUrl': ok('http://localhost/files/draft.json'),
      '/files/draft.json': { body: draft },
      '/file/url/transfer': (body) => ok(Object.fromEntries((body as { data: string[] }).data.map((key) => [key, `https://fresh/${key}`]))),
    });
    expect(await openProject('p1')).toBe(true);
    expect(currentProject()?.projectName).toBe('Server name');
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
    const api = {
      '/project/getProjectById': ok(summary),
      '/project/getDraftFileUrl': ok('http://localhost/files/draft.json'),
      '/files/draft.json': { body: draftWith({ productLink: 'https://server.example/p' }) },
      '/project/saveDraftFile': (body: unknown) => {
        saves.push((body as { draftContent: string }).draftContent);
        return ok(true);
      },
    };
    stubApi(api);
    await openProject('p1');
    // The page is left before the server save goes: only the local copy has the change.
    vi.useFakeTimers();
    controller().patchProduct({ productName: 'Edited' });
    closeProject();
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
    expect(currentProject()).toMatchObject({ projectId: 'p1', projectName: 'Server name', productLink: 'https://shop.example/p' });
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
