import type { CallData } from '@reelsmith/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createStore } from 'zustand/vanilla';
import type { api } from '../../../shared/api/client';
import { createProjectController, SERVER_SAVE_DELAY_MS } from './controller';
import { draftKey } from './draft';
import type { ProjectStore } from './store';
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

function setUp(project: Project, answers: Record<string, Answer>) {
  const store = createStore<ProjectStore>(() => ({ project, phase: 'ready', progress: null, failure: null }));
  const service = fakeApi({ '/project/saveDraftFile': () => true, ...answers });
  const toast = { error: vi.fn() };
  const refreshCredits = vi.fn();
  const controller = createProjectController(project.projectId, { store, api: service.call, toast, refreshCredits });
  return { store, service, toast, refreshCredits, controller, project: () => store.getState().project };
}

const fresh = (change: Partial<Project> = {}): Project => ({ ...newProject('p1', 'https://shop.example/p', 'Mug'), ...change });

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

  it('keeps the message of a failed generation for the page, and a new submit clears it', async () => {
    const product = { ...emptyProduct(), productName: 'Mug', productDescription: 'A mug.' };
    const { controller, store } = setUp(fresh({ product }), {
      '/task/v1/link-video/submit': () => ({ taskId: 't2' }),
      '/task/v1/link-video/query': () => ({ taskId: 't2', status: 'FAILURE', error: JSON.stringify({ message: 'No voice' }) }),
    });
    await controller.submitLinkVideo();
    await vi.advanceTimersByTimeAsync(0);
    expect(store.getState().failure).toBe('No voice');
    expect(store.getState().project?.taskStatus).toBe('FAILURE');
    await controller.submitLinkVideo();
    expect(store.getState().failure).toBeNull();
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

  it('leaves a project the store no longer holds alone', async () => {
    const { controller, store } = setUp(fresh(), {});
    store.setState({ project: fresh({ projectId: 'p2' }) });
    controller.patchProduct({ productName: 'Elsewhere' });
    expect(store.getState().project?.projectId).toBe('p2');
    expect(store.getState().project?.product).toBeNull();
  });
});
