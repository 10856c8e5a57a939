import { type CallData, ERRORS } from '@reelsmith/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { ApiError, type api } from '../../../shared/api/client';
import { type ProjectSummary, projectSummaryKey } from '../../../shared/api/projectSummary';
import { newQueryClient } from '../../../shared/api/queryClient';
import { createProjectController, SERVER_SAVE_DELAY_MS } from './controller';
import { draftKey } from './draft';
import type { ProjectStore } from './store';
import { projectTaskKey, projectTaskState } from './taskApi';
import { emptyProduct, newProject, type Project } from './types';

// The controller alone: a store of its own, a fake service answering by path, fake timers. Nothing is rendered.

type Answer = (input: { query?: unknown; body?: unknown }) => unknown;

/** A fake API client answering by call path; it records every call with what it sent. */
function fakeApi(answers: Record<string, Answer>) {
  const calls: { path: string; body?: unknown; query?: unknown }[] = [];
  const call: typeof api = async (definition, options = {}) => {
    calls.push({ path: definition.path, body: options.body, query: options.query });
    const answer = answers[definition.path];
    if (!answer) throw new Error(`unexpected call ${definition.path}`);
    return answer(options) as CallData<typeof definition>;
  };
  return { call, calls, paths: () => calls.map((entry) => entry.path) };
}

/** A summary of the project as the service answers it, named `projectName`. */
const summaryNamed = (projectName: string): ProjectSummary => ({
  projectId: 'p1',
  projectName,
  productLink: null,
  coverUrl: null,
  taskStatus: null,
  exportCount: 0,
  createTime: '',
  updateTime: '',
});

function setUp(project: Project, answers: Record<string, Answer>) {
  const store = createStore<ProjectStore>(() => ({ project }));
  const service = fakeApi({ '/project/saveDraftFile': () => true, ...answers });
  const toast = { error: vi.fn() };
  const refreshCredits = vi.fn();
  const queryClient = newQueryClient();
  // The header has read the project's summary: the project is untitled.
  queryClient.setQueryData(projectSummaryKey(project.projectId), summaryNamed(''));
  const controller = createProjectController(project.projectId, { store, api: service.call, toast, refreshCredits, queryClient });
  return {
    store,
    service,
    toast,
    refreshCredits,
    controller,
    queryClient,
    project: () => store.getState().project,
    /** The project's name where every reader finds it. */
    name: () => queryClient.getQueryData<ProjectSummary>(projectSummaryKey(project.projectId))?.projectName,
    /** Where the project's task stands, as the pages read it. */
    taskState: () => projectTaskState(queryClient, store.getState().project),
  };
}

const fresh = (change: Partial<Project> = {}): Project => ({ ...newProject('p1', 'https://shop.example/p'), ...change });

beforeEach(() => vi.useFakeTimers());
afterEach(() => localStorage.clear());

describe('project controller', () => {
  it('does not save the project it was given, and saves a change locally at once and to the server once changes settle', async () => {
    const { controller, service } = setUp(fresh(), {});
    await vi.advanceTimersByTimeAsync(SERVER_SAVE_DELAY_MS);
    expect(service.paths()).toEqual([]);

    controller.patchProduct({ productName: 'Mug' });
    controller.patchProduct({ productName: 'Mug 2' });
    expect(JSON.parse(localStorage.getItem(draftKey('p1')) ?? '{}').product.productName).toBe('Mug 2');
    await vi.advanceTimersByTimeAsync(SERVER_SAVE_DELAY_MS - 1);
    expect(service.paths()).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(service.paths()).toEqual(['/project/saveDraftFile']);
  });

  it('sends a save still waiting at once when the project is left, and nothing later', async () => {
    const { controller, service } = setUp(fresh(), {});
    controller.patchProduct({ productName: 'Mug 2' });
    await vi.advanceTimersByTimeAsync(SERVER_SAVE_DELAY_MS / 2);
    expect(service.paths()).toEqual([]);
    controller.dispose();
    expect(service.paths()).toEqual(['/project/saveDraftFile']);
    const sent = service.calls.find((entry) => entry.path === '/project/saveDraftFile')?.body as { draftContent: string };
    expect(JSON.parse(sent.draftContent).product.productName).toBe('Mug 2');
    await vi.advanceTimersByTimeAsync(SERVER_SAVE_DELAY_MS * 2);
    expect(service.paths()).toEqual(['/project/saveDraftFile']);
  });

  it('says once, in the server’s words, that a draft does not fit in the storage, and keeps it locally', async () => {
    const full = 'Your storage is full: 10 MB of 10 MB used. Delete files you no longer need, then try again.';
    let answer: () => unknown = () => {
      throw new ApiError('envelope', full, ERRORS.storageQuotaExceeded.code);
    };
    const { controller, toast } = setUp(fresh(), { '/project/saveDraftFile': () => answer() });
    controller.patchProduct({ productName: 'Mug' });
    await vi.advanceTimersByTimeAsync(SERVER_SAVE_DELAY_MS);
    controller.patchProduct({ productName: 'Mug 2' });
    await vi.advanceTimersByTimeAsync(SERVER_SAVE_DELAY_MS);
    expect(toast.error.mock.calls).toEqual([[full]]);
    expect(JSON.parse(localStorage.getItem(draftKey('p1')) ?? '{}').product.productName).toBe('Mug 2');
    // Room made: the next save goes through, and a later refusal is said again.
    answer = () => true;
    controller.patchProduct({ productName: 'Mug 3' });
    await vi.advanceTimersByTimeAsync(SERVER_SAVE_DELAY_MS);
    answer = () => {
      throw new ApiError('envelope', full, ERRORS.storageQuotaExceeded.code);
    };
    controller.patchProduct({ productName: 'Mug 4' });
    await vi.advanceTimersByTimeAsync(SERVER_SAVE_DELAY_MS);
    expect(toast.error).toHaveBeenCalledTimes(2);
    // Any other refusal stays silent: the local copy holds the change and the next save sends it.
    answer = () => {
      throw new ApiError('network', 'offline');
    };
    controller.patchProduct({ productName: 'Mug 5' });
    await vi.advanceTimersByTimeAsync(SERVER_SAVE_DELAY_MS);
    expect(toast.error).toHaveBeenCalledTimes(2);
    controller.dispose();
  });

  it('resumes an unfinished analysis and puts what it found in the project', async () => {
    const { controller, project, service } = setUp(fresh({ taskPath: 'link-analysis', taskId: 't1', taskStatus: 'IN_PROGRESS' }), {
      '/task/v1/link-analysis/query': () => ({
        taskId: 't1',
        status: 'SUCCESS',
        productName: 'Green mug',
        productDescription: 'Holds tea.',
        productImages: [{ fileId: 'f1', fileUrl: 'https://cdn/f1.jpg' }],
      }),
      '/file/url/transfer': () => ({}),
      '/assert/urls': () => ({ f1: 'https://fresh/f1.jpg' }),
    });
    controller.resumeTasks();
    await vi.advanceTimersByTimeAsync(0);
    expect(project()?.taskStatus).toBe('SUCCESS');
    expect(project()?.product).toMatchObject({ productName: 'Green mug', productDescription: 'Holds tea.' });
    expect(project()?.product?.productImages.map((image) => [image.fileId, image.fileUrl])).toEqual([['f1', 'https://fresh/f1.jpg']]);
    expect(service.paths()[0]).toBe('/task/v1/link-analysis/query');
  });

  it('puts the import report in the project and names it after the product an analysis found', async () => {
    const mediaImport = { imagesFound: 3, imagesFailed: 3, videosFound: 0, videosFailed: 0, failure: 'refused' };
    const { controller, project, service, toast, name } = setUp(
      fresh({ taskPath: 'link-analysis', taskId: 't1', taskStatus: 'SUBMITTED' }),
      {
        '/task/v1/link-analysis/query': () => ({
          taskId: 't1',
          status: 'SUCCESS',
          productName: 'Linen shirt',
          productDescription: '',
          productImages: [],
          mediaImport,
        }),
        '/project/nameAfterProduct': () => ({ projectName: 'Linen shirt' }),
        '/file/url/transfer': () => ({}),
        '/assert/urls': () => ({}),
      },
    );
    controller.resumeTasks();
    await vi.advanceTimersByTimeAsync(0);
    expect(project()).toMatchObject({ mediaImport, product: { productName: 'Linen shirt', productImages: [] } });
    // The summary takes the name the service answered; the draft holds none of its own.
    expect(name()).toBe('Linen shirt');
    expect(project()).not.toHaveProperty('projectName');
    expect(JSON.parse(localStorage.getItem(draftKey('p1')) ?? '{}')).not.toHaveProperty('projectName');
    expect(service.calls.find((call) => call.path === '/project/nameAfterProduct')?.body).toEqual({
      projectId: 'p1',
      productName: 'Linen shirt',
    });
    expect(toast.error).not.toHaveBeenCalled();
  });

  it('keeps why an analysis failed for the page, without a toast, and asks a failed one again on return', async () => {
    const error = JSON.stringify({ message: 'Analysis failed: the page answered with HTTP 403.' });
    const answers = { '/task/v1/link-analysis/query': () => ({ taskId: 't1', status: 'FAILURE', error }) };
    const failedOne = fresh({ taskPath: 'link-analysis', taskId: 't1', taskStatus: 'FAILURE' });
    const { controller, toast, taskState } = setUp(failedOne, answers);
    controller.resumeTasks();
    await vi.advanceTimersByTimeAsync(0);
    expect(taskState().failure).toBe('Analysis failed: the page answered with HTTP 403.');
    expect(toast.error).not.toHaveBeenCalled();
    // A project that went on by hand has nothing to ask.
    const byHand = setUp({ ...failedOne, product: { ...emptyProduct(), productName: 'Mug' } }, answers);
    byHand.controller.resumeTasks();
    await vi.advanceTimersByTimeAsync(0);
    expect(byHand.service.paths()).toEqual([]);
  });

  it('goes on with a product entered by hand only with a name and a picture, in the currency of the language', async () => {
    const picture = { fileId: 'f1', fileName: 'a.jpg', fileUrl: 'https://cdn/a.jpg', resKey: 'k/a.jpg', format: 'jpg' };
    const { controller, project, service, name } = setUp(fresh({ taskPath: 'link-analysis', taskId: 't1', taskStatus: 'FAILURE' }), {
      '/project/nameAfterProduct': () => ({ projectName: 'Brass lamp' }),
    });
    expect(controller.enterProductByHand()).toEqual({ name: 'product.nameRequired', pictures: 'failed.pictureRequired' });
    controller.patchManualProduct({ productName: '  Brass lamp ', productDescription: 'Warm light.' });
    expect(controller.enterProductByHand()).toEqual({ name: null, pictures: 'failed.pictureRequired' });
    controller.addManualPictures([picture, { ...picture, fileId: 'f2' }]);
    controller.removeManualPicture('f2');
    expect(project()?.product).toBeNull();
    expect(controller.enterProductByHand()).toBeNull();
    expect(project()).toMatchObject({
      manualProduct: null,
      product: { productName: 'Brass lamp', productDescription: 'Warm light.', productImages: [picture], productCurrency: 'USD' },
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(name()).toBe('Brass lamp');
    expect(service.paths()).toContain('/project/nameAfterProduct');
  });

  it('keeps the message of a failed generation for the page, and a new submit clears it', async () => {
    const product = { ...emptyProduct(), productName: 'Mug', productDescription: 'A mug.' };
    let taskIds = 1;
    const { controller, store, taskState } = setUp(fresh({ product }), {
      '/task/v1/link-video/submit': () => ({ taskId: `t${++taskIds}` }),
      '/task/v1/link-video/query': () => ({ taskId: 't2', status: 'FAILURE', error: JSON.stringify({ message: 'No voice' }) }),
    });
    await controller.submitLinkVideo();
    await vi.advanceTimersByTimeAsync(0);
    expect(taskState().failure).toBe('No voice');
    expect(store.getState().project?.taskStatus).toBe('FAILURE');
    await controller.submitLinkVideo();
    expect(taskState().failure).toBeNull();
  });

  it('stops polling once disposed, and its answers no longer reach the store', async () => {
    let polls = 0;
    const { controller, project } = setUp(fresh({ taskPath: 'link-video', taskId: 't3', taskStatus: 'SUBMITTED' }), {
      '/task/v1/link-video/query': () => {
        polls++;
        return { taskId: 't3', status: 'IN_PROGRESS' };
      },
    });
    controller.resumeTasks();
    await vi.advanceTimersByTimeAsync(2000);
    expect(polls).toBe(2);
    controller.dispose();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(polls).toBe(2);
    // Nor are its changes followed into the draft.
    const draft = localStorage.getItem(draftKey('p1'));
    controller.patchProduct({ productName: 'After' });
    expect(project()?.product?.productName).toBe('After');
    expect(localStorage.getItem(draftKey('p1'))).toBe(draft);
  });

  it('stops asking once the task ends, and the pages read its progress from the same query until then', async () => {
    const answers = [
      { taskId: 't3', status: 'IN_PROGRESS', progress: 'scripting' },
      { taskId: 't3', status: 'IN_PROGRESS', progress: 'rendering' },
      { taskId: 't3', status: 'SUCCESS', previewVideos: [], scriptContentList: [] },
    ];
    let polls = 0;
    const { controller, queryClient, taskState } = setUp(fresh({ taskPath: 'link-video', taskId: 't3', taskStatus: 'SUBMITTED' }), {
      '/task/v1/link-video/query': () => {
        polls++;
        return answers.shift() ?? { taskId: 't3', status: 'IN_PROGRESS' };
      },
    });
    controller.resumeTasks();
    await vi.advanceTimersByTimeAsync(0);
    expect(taskState().progress).toBe('scripting');
    await vi.advanceTimersByTimeAsync(2000);
    expect(taskState().progress).toBe('rendering');
    await vi.advanceTimersByTimeAsync(2000);
    expect(polls).toBe(3);
    expect(taskState()).toEqual({ progress: null, failure: null, endsAt: null });
    // Ended: nothing more is asked, and nobody is left polling the task.
    await vi.advanceTimersByTimeAsync(30_000);
    expect(polls).toBe(3);
    expect(
      queryClient
        .getQueryCache()
        .find({ queryKey: projectTaskKey('link-video', 't3') })
        ?.getObserversCount(),
    ).toBe(0);
  });

  it('stops asking once a task fails too, and keeps why for the page', async () => {
    let polls = 0;
    const { controller, taskState } = setUp(fresh({ taskPath: 'script-update', taskId: 't5', taskStatus: 'IN_PROGRESS' }), {
      '/task/v1/script-update/query': () => {
        polls++;
        return polls < 2
          ? { taskId: 't5', status: 'IN_PROGRESS' }
          : { taskId: 't5', status: 'FAILURE', error: JSON.stringify({ message: 'Voice unavailable' }) };
      },
    });
    controller.resumeTasks();
    await vi.advanceTimersByTimeAsync(2000);
    expect(taskState().failure).toBe('Voice unavailable');
    await vi.advanceTimersByTimeAsync(30_000);
    expect(polls).toBe(2);
  });

  it('shows the previews of link-video one by one as each lands, then all of them when it ends', async () => {
    const video = (n: number) => ({ resKey: `v${n}`, scriptId: `s${n}`, videoUrl: `https://cdn/v${n}.mp4`, taskId: 't3' });
    const script = (n: number) => ({ scriptId: `s${n}`, segments: [{ segId: 1, segText: `Line ${n}.` }] });
    const answers = [
      { taskId: 't3', status: 'IN_PROGRESS' },
      { taskId: 't3', status: 'IN_PROGRESS', previewVideos: [video(1)], scriptContentList: [script(1)] },
      { taskId: 't3', status: 'SUCCESS', previewVideos: [video(1), video(2)], scriptContentList: [script(1), script(2)] },
    ];
    const { controller, project } = setUp(fresh({ taskPath: 'link-video', taskId: 't3', taskStatus: 'SUBMITTED' }), {
      '/task/v1/link-video/query': () => answers.shift() ?? answers.at(-1),
    });
    controller.resumeTasks();
    await vi.advanceTimersByTimeAsync(0);
    expect(project()?.preview).toBeNull();
    await vi.advanceTimersByTimeAsync(2000);
    expect(project()?.taskStatus).toBe('IN_PROGRESS');
    expect(project()?.preview?.previewVideos.map((v) => v.scriptId)).toEqual(['s1']);
    expect(project()?.editedScriptId).toBe('s1');
    await vi.advanceTimersByTimeAsync(2000);
    expect(project()?.taskStatus).toBe('SUCCESS');
    expect(project()?.preview?.previewVideos.map((v) => v.scriptId)).toEqual(['s1', 's2']);
  });

  it('leaves a project the store no longer holds alone', async () => {
    const { controller, store } = setUp(fresh(), {});
    store.setState({ project: fresh({ projectId: 'p2' }) });
    controller.patchProduct({ productName: 'Elsewhere' });
    expect(store.getState().project?.projectId).toBe('p2');
    expect(store.getState().project?.product).toBeNull();
  });
});

describe('templates, offer and label in the calls', () => {
  const product = {
    ...emptyProduct(),
    productName: 'Mug',
    productDescription: 'A mug.',
    productImages: [{ fileId: 'f1', fileName: 'a.jpg', fileUrl: 'https://cdn/a.jpg', resKey: 'k/a.jpg', format: 'jpg' }],
  };
  const previewVideo = { resKey: 'v1', scriptId: 's1', videoUrl: 'https://cdn/v1.mp4', taskId: 't1', templateId: 'bold-ugc' as const };
  const previewed = (change: Partial<Project> = {}) =>
    fresh({
      product,
      taskId: 't1',
      taskPath: 'link-video',
      taskStatus: 'SUCCESS',
      preview: { previewVideos: [previewVideo], scriptContentList: [{ scriptId: 's1', segments: [{ segId: 0, segText: 'Hello.' }] }] },
      editedScriptId: 's1',
      ...change,
    });
  /** The body of a call as it goes over the wire (JSON: a field left undefined is not sent). */
  const bodyOf = (service: ReturnType<typeof setUp>['service'], path: string) =>
    JSON.parse(JSON.stringify(service.calls.find((entry) => entry.path === path)?.body ?? null));

  it('puts the price and brand the analysis found in the product, and keeps them in the draft', async () => {
    const { controller, project } = setUp(fresh({ taskPath: 'link-analysis', taskId: 't1', taskStatus: 'IN_PROGRESS' }), {
      '/task/v1/link-analysis/query': () => ({
        taskId: 't1',
        status: 'SUCCESS',
        productName: 'Kettle',
        productDescription: 'Boils.',
        productImages: [],
        productOffer: { price: '54.90', currency: 'EUR', listPrice: '69.90' },
        productBrand: 'Acme',
      }),
      '/file/url/transfer': () => ({}),
      '/assert/urls': () => ({}),
    });
    controller.resumeTasks();
    await vi.advanceTimersByTimeAsync(0);
    expect(project()?.product).toMatchObject({
      productPrice: '54.90',
      productListPrice: '69.90',
      productCurrency: 'EUR',
      productBrand: 'Acme',
    });
    expect(JSON.parse(localStorage.getItem(draftKey('p1')) ?? '{}').product).toMatchObject({ productPrice: '54.90', productBrand: 'Acme' });
  });

  it('gives a page without a price the currency of the seller’s language, ready for a price typed by hand', async () => {
    const { controller, project } = setUp(fresh({ taskPath: 'link-analysis', taskId: 't1', taskStatus: 'IN_PROGRESS' }), {
      '/task/v1/link-analysis/query': () => ({
        taskId: 't1',
        status: 'SUCCESS',
        productName: 'Kettle',
        productDescription: '',
        productImages: [],
      }),
      '/file/url/transfer': () => ({}),
      '/assert/urls': () => ({}),
    });
    controller.resumeTasks();
    await vi.advanceTimersByTimeAsync(0);
    expect(project()?.product).toMatchObject({ productPrice: '', productListPrice: '', productCurrency: 'USD', productBrand: '' });
  });

  it('sends link-video with the offer as the contract takes it, the brand and the chosen template', async () => {
    const { controller, service } = setUp(
      fresh({
        product: { ...product, productPrice: '54,90', productListPrice: '69.90', productCurrency: 'BRL', productBrand: '  Acme  ' },
        editorConfig: { templateId: 'minimal-luxury' },
      }),
      {
        '/task/v1/link-video/submit': () => ({ taskId: 't2' }),
        '/task/v1/link-video/query': () => ({ taskId: 't2', status: 'IN_PROGRESS' }),
      },
    );
    await controller.submitLinkVideo();
    expect(bodyOf(service, '/task/v1/link-video/submit')).toMatchObject({
      productOffer: { price: '54.90', currency: 'BRL', listPrice: '69.90' },
      productBrand: 'Acme',
      editorConfig: { templateId: 'minimal-luxury' },
      fileIds: ['f1'],
    });
  });

  it('sends no offer card and no brand when the price and brand are left empty, and no template when it is automatic', async () => {
    const { controller, service } = setUp(fresh({ product: { ...product, productCurrency: 'USD' } }), {
      '/task/v1/link-video/submit': () => ({ taskId: 't2' }),
      '/task/v1/link-video/query': () => ({ taskId: 't2', status: 'IN_PROGRESS' }),
    });
    await controller.submitLinkVideo();
    const body = bodyOf(service, '/task/v1/link-video/submit') as Record<string, unknown>;
    expect(body.productOffer).toBeUndefined();
    expect(body.productBrand).toBeUndefined();
    expect(body.editorConfig).not.toHaveProperty('templateId');
  });

  it('re-renders the edited video in another template with a script update carrying it, and puts the new video in its place', async () => {
    const { controller, service, project } = setUp(previewed({ editorConfig: { voiceId: 'v-en-1' } }), {
      '/task/v1/script-update/submit': () => ({ taskId: 't3' }),
      '/task/v1/script-update/query': () => ({
        taskId: 't3',
        status: 'SUCCESS',
        previewVideos: [{ ...previewVideo, resKey: 'v2', videoUrl: 'https://cdn/v2.mp4', taskId: 't3', templateId: 'sale' }],
        scriptContentList: [{ scriptId: 's1', segments: [{ segId: 0, segText: 'Hello.' }] }],
      }),
    });
    await controller.submitScriptUpdate([{ segId: 0, segText: 'Hello.' }], { templateId: 'sale' });
    expect(bodyOf(service, '/task/v1/script-update/submit')).toEqual({
      projectId: 'p1',
      taskId: 't1',
      resultNum: 1,
      scriptId: 's1',
      scriptContents: [{ segId: 0, segText: 'Hello.' }],
      voiceId: 'v-en-1',
      templateId: 'sale',
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(project()?.preview?.previewVideos).toEqual([expect.objectContaining({ resKey: 'v2', templateId: 'sale' })]);
  });

  it('puts a presenter on camera, or takes them off, with a script update carrying the choice', async () => {
    for (const presenterId of ['pr1', null]) {
      const { controller, service } = setUp(previewed(), {
        '/task/v1/script-update/submit': () => ({ taskId: 't3' }),
        '/task/v1/script-update/query': () => ({ taskId: 't3', status: 'IN_PROGRESS' }),
      });
      await controller.submitScriptUpdate([{ segId: 0, segText: 'Hi.' }], { presenterId });
      expect(bodyOf(service, '/task/v1/script-update/submit')).toMatchObject({ scriptId: 's1', presenterId });
    }
  });

  it('leaves the template out of a plain script update, so the video keeps its own', async () => {
    const { controller, service } = setUp(previewed(), {
      '/task/v1/script-update/submit': () => ({ taskId: 't3' }),
      '/task/v1/script-update/query': () => ({ taskId: 't3', status: 'IN_PROGRESS' }),
    });
    await controller.submitScriptUpdate([{ segId: 0, segText: 'Hi.' }]);
    expect(bodyOf(service, '/task/v1/script-update/submit')).not.toHaveProperty('templateId');
    expect(bodyOf(service, '/task/v1/script-update/submit')).not.toHaveProperty('presenterId');
  });

  it('sends the AI-generated label as the export page’s switch says', async () => {
    for (const aiLabel of [true, false]) {
      const { controller, service } = setUp(previewed(), {
        '/task/v1/export-video/submit': () => ({ taskId: 't4' }),
        '/task/v1/export-video/query': () => ({ taskId: 't4', status: 'IN_PROGRESS' }),
      });
      await controller.submitExport(['s1'], aiLabel);
      expect(bodyOf(service, '/task/v1/export-video/submit')).toMatchObject({ scriptId: 's1', aiLabel });
      controller.dispose();
    }
  });
});
