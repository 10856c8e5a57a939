import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ok, renderApp, userWith } from '../../test/renderApp';
import { inHistory, libraryImage, libraryOf, record, stubTool } from '../generation/testing';

// Mounting the whole app with antd's styles is slow on a shared 2-core machine, and polls come 2 s apart.
vi.setConfig({ testTimeout: 60_000 });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const MODELS = ok([
  { modelId: 'kling', name: 'Kling', tiers: ['std', 'pro'], durations: [5, 10], engine: 'vendor' },
  { modelId: 'short', name: 'Short only', tiers: ['std'], durations: [5], engine: 'vendor' },
]);
/** A server with no vendor image-to-video model: its own engine makes the video. */
const LOCAL = ok([{ modelId: 'local', name: 'local', tiers: ['std', 'pro'], durations: [5, 10], engine: 'local' }]);
const LIBRARY = libraryOf(libraryImage('f1', { fileName: 'bottle.png', fileUrl: 'http://files.test/bottle.png' }));

const prompt = () => screen.findByRole('textbox', { name: 'Prompt' });
const generate = () => fireEvent.click(screen.getByRole('button', { name: 'Generate' }));
const history = () => screen.getByRole('region', { name: 'Generation history' });

describe('text to video', () => {
  it('refuses an empty prompt with the spec message and submits nothing', async () => {
    const { submitted } = stubTool({ tool: 'text-to-video', extra: { '/video/models': MODELS } });
    renderApp('/tools/video/text-to-video', userWith('ACTIVE'));
    fireEvent.change(await prompt(), { target: { value: '   ' } });
    generate();
    expect((await screen.findByRole('alert')).textContent).toBe('Prompts cannot be empty');
    expect(submitted).toEqual([]);
    // The message goes as soon as the prompt is written, without another click on Generate.
    fireEvent.change(await prompt(), { target: { value: 'A bottle' } });
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });

  it('brings the record of the task just submitted into view', async () => {
    const scrolled = vi.spyOn(Element.prototype, 'scrollIntoView');
    stubTool({
      tool: 'text-to-video',
      history: [record('text-to-video', 'old-1', { status: 'SUCCESS' })],
      extra: { '/video/models': MODELS },
    });
    renderApp('/tools/video/text-to-video', userWith('ACTIVE'));
    await within(await screen.findByRole('region', { name: 'Generation history' })).findByText('prompt of old-1');
    expect(scrolled).not.toHaveBeenCalled();
    fireEvent.change(await prompt(), { target: { value: 'A bottle' } });
    generate();
    const fresh = await inHistory((history) => history.getByText('A bottle'));
    await waitFor(() => expect(scrolled).toHaveBeenCalledTimes(1));
    const entry = scrolled.mock.contexts[0] as HTMLElement;
    expect(entry.contains(fresh)).toBe(true);
    expect(entry.contains(within(history()).getByText('prompt of old-1'))).toBe(false);
    scrolled.mockRestore();
  });

  it('shows the price of the chosen tier and length times the count before submitting', async () => {
    stubTool({ tool: 'text-to-video', extra: { '/video/models': MODELS } });
    renderApp('/tools/video/text-to-video', userWith('ACTIVE'));
    expect(await screen.findByText('Cost: 20 credits')).toBeTruthy();
    fireEvent.click(within(screen.getByRole('group', { name: 'Duration' })).getByText('10 s'));
    expect(await screen.findByText('Cost: 35 credits')).toBeTruthy();
    fireEvent.click(within(screen.getByRole('group', { name: 'Quality' })).getByText('Pro'));
    fireEvent.click(within(screen.getByRole('group', { name: 'Number of outputs' })).getByText('2'));
    expect(await screen.findByText('Cost: 120 credits')).toBeTruthy();
  });

  it('submits the options, refreshes the balance, shows the progress and then the playable video', async () => {
    const { submitted, calls } = stubTool({
      tool: 'text-to-video',
      queries: [
        // Such videos took 10 minutes here lately (decision "Progress estimates").
        { status: 'IN_PROGRESS', progress: 'animating', expectedSeconds: 600, elapsedSeconds: 0 },
        { status: 'SUCCESS', videos: [{ resKey: 'u/u1/v1.mp4', url: 'http://files.test/v1.mp4', posterUrl: 'http://files.test/v1.webp' }] },
      ],
      extra: { '/video/models': MODELS },
    });
    renderApp('/tools/video/text-to-video', userWith('ACTIVE'));
    fireEvent.change(await prompt(), { target: { value: ' A bottle on a beach ' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Negative prompt (optional)' }), { target: { value: 'people' } });
    fireEvent.click(within(screen.getByRole('group', { name: 'Ratio' })).getByText('16:9'));
    fireEvent.click(screen.getByRole('switch'));
    generate();

    await waitFor(() => expect(submitted).toHaveLength(1));
    expect(submitted[0]).toEqual({
      prompt: 'A bottle on a beach',
      negativePrompt: 'people',
      duration: 5,
      ratio: '16:9',
      tier: 'std',
      soundEffect: true,
      count: 1,
    });
    await waitFor(() => expect(calls).toContain('/points/refresh'));

    const current = await inHistory((history) => history.getByText('Animating scenes'));
    expect(current.dataset.state).toBe('current');
    expect((await inHistory((history) => history.getByRole('timer'))).textContent).toBe('About 10 min left');
    expect((await inHistory((history) => history.getByText('Parsing content'))).dataset.state).toBe('done');
    expect((await inHistory((history) => history.getByText('Polishing effects and colour grading'))).dataset.state).toBe('next');

    const video = await inHistory((history) => history.getByLabelText('Video 1'));
    expect(video.getAttribute('src')).toBe('http://files.test/v1.mp4');
    expect((await inHistory((history) => history.getByRole('link', { name: 'Download' }))).getAttribute('href')).toBe(
      'http://files.test/v1.mp4',
    );
  });

  it('shows the two failure messages when the generation fails', async () => {
    stubTool({
      tool: 'text-to-video',
      queries: [{ status: 'FAILURE', error: JSON.stringify({ message: 'Generation failed' }) }],
      extra: { '/video/models': MODELS },
    });
    renderApp('/tools/video/text-to-video', userWith('ACTIVE'));
    fireEvent.change(await prompt(), { target: { value: 'A bottle' } });
    generate();
    await inHistory((history) => history.getByText('Generation failed'));
    await inHistory((history) => history.getByText("Don't worry, your credits remain unchanged"));
  });

  it("shows the task's own reason under the spec's words when the server is missing a part", async () => {
    const reason = 'Generation failed: this server is missing a part it needs. Please tell its administrator.';
    stubTool({
      tool: 'text-to-video',
      queries: [{ status: 'FAILURE', error: JSON.stringify({ message: reason }) }],
      extra: { '/video/models': MODELS },
    });
    renderApp('/tools/video/text-to-video', userWith('ACTIVE'));
    fireEvent.change(await prompt(), { target: { value: 'A bottle' } });
    generate();
    await inHistory((history) => history.getByText(reason));
    await inHistory((history) => history.getByText('Generation failed'));
    await inHistory((history) => history.getByText("Don't worry, your credits remain unchanged"));
  });

  it('cancels a running generation from its history row: the service is asked, and both a message and the row say the credits came back', async () => {
    const cancels: unknown[] = [];
    const { calls } = stubTool({
      tool: 'text-to-video',
      queries: [{ status: 'IN_PROGRESS', progress: 'animating' }, { status: 'IN_PROGRESS', progress: 'animating' }, { status: 'FAILURE' }],
      extra: {
        '/video/models': MODELS,
        '/task/v1/text-to-video/cancel': (body) => {
          cancels.push(body);
          return ok({ taskId: 'task-1', status: 'FAILURE', error: JSON.stringify({ message: 'The task was cancelled.' }) });
        },
      },
    });
    renderApp('/tools/video/text-to-video', userWith('ACTIVE'));
    fireEvent.change(await prompt(), { target: { value: 'A bottle' } });
    generate();
    const refreshes = () => calls.filter((call) => call === '/points/refresh').length;
    fireEvent.click(await inHistory((history) => history.getByRole('button', { name: 'Cancel' })));
    const refreshedBefore = refreshes();
    await waitFor(() => expect(cancels).toEqual([{ taskId: 'task-1' }]));
    // The answer is told at once, as a message and in the row, and the balance is asked for again.
    await waitFor(() => expect(screen.getAllByText('Cancelled, credits returned')).toHaveLength(2));
    expect(within(history()).getByText('Cancelled, credits returned')).toBeTruthy();
    await waitFor(() => expect(refreshes()).toBeGreaterThan(refreshedBefore));
    expect(within(history()).queryByRole('button', { name: 'Cancel' })).toBeNull();
    expect(within(history()).queryByText('Generation failed')).toBeNull();
  });

  it('says it is too late when the generation finished before the cancel, then shows the result', async () => {
    stubTool({
      tool: 'text-to-video',
      queries: [
        { status: 'IN_PROGRESS', progress: 'animating' },
        { status: 'IN_PROGRESS', progress: 'animating' },
        { status: 'SUCCESS', videos: [{ resKey: 'u/u1/v1.mp4', url: 'http://files.test/v1.mp4' }] },
      ],
      extra: {
        '/video/models': MODELS,
        '/task/v1/text-to-video/cancel': {
          body: { code: 40900, message: 'Too late to cancel: this task has already finished.', data: null },
        },
      },
    });
    renderApp('/tools/video/text-to-video', userWith('ACTIVE'));
    fireEvent.change(await prompt(), { target: { value: 'A bottle' } });
    generate();
    fireEvent.click(await inHistory((history) => history.getByRole('button', { name: 'Cancel' })));
    // Said at once, as a message and in the row, which then shows the result it finished with.
    await waitFor(() => expect(screen.getAllByText('Too late to cancel: the generation had already finished')).toHaveLength(2));
    expect(within(history()).getByText('Too late to cancel: the generation had already finished')).toBeTruthy();
    await inHistory((history) => history.getByLabelText('Video 1'));
    expect(within(history()).queryByText('Cancelled, credits returned')).toBeNull();
  });

  it('pages the history as it is scrolled to its end', async () => {
    const rows = Array.from({ length: 25 }, (_, i) => record('text-to-video', `old-${i + 1}`, { status: 'SUCCESS' }));
    const { calls } = stubTool({ tool: 'text-to-video', history: rows, extra: { '/video/models': MODELS } });
    renderApp('/tools/video/text-to-video', userWith('ACTIVE'));
    await within(await screen.findByRole('region', { name: 'Generation history' })).findByText('prompt of old-20');
    expect(within(history()).queryByText('prompt of old-21')).toBeNull();
    const area = history();
    Object.defineProperties(area, {
      scrollHeight: { value: 2000, configurable: true },
      clientHeight: { value: 600, configurable: true },
      scrollTop: { value: 1395, configurable: true },
    });
    fireEvent.scroll(area);
    expect(await within(history()).findByText('prompt of old-25')).toBeTruthy();
    expect(within(history()).getByText('That is everything')).toBeTruthy();
    expect(calls.filter((call) => call === '/generation/history')).toHaveLength(2);
  });
});

describe('image to video', () => {
  it('needs an image, then submits the one picked from the library', async () => {
    const { submitted } = stubTool({
      tool: 'image-to-video',
      extra: { '/video/models': MODELS, '/assert/folders/files': LIBRARY },
    });
    renderApp('/tools/video/image-to-video', userWith('ACTIVE'));
    expect(await screen.findByText('Cost: 20 credits')).toBeTruthy();
    generate();
    expect((await screen.findByRole('alert')).textContent).toBe('Please add an image');

    fireEvent.click(screen.getByRole('button', { name: /Choose from my assets/ }));
    fireEvent.click(await screen.findByRole('checkbox', { name: 'bottle.png' }));
    fireEvent.click(screen.getByRole('button', { name: 'Use' }));
    expect(await screen.findByRole('img', { name: 'bottle.png' })).toBeTruthy();
    // The picture fixed the form: its message is gone before Generate is clicked again.
    expect(screen.queryByText('Please add an image')).toBeNull();
    generate();
    await waitFor(() => expect(submitted).toHaveLength(1), { timeout: 30_000 });
    expect(submitted[0]).toEqual({ image: { resKey: 'u/u1/f1.png' }, duration: 5, tier: 'std', soundEffect: false, count: 1 });
  });

  it('says before paying that the built-in engine makes camera moves only, and when a prompt names none', async () => {
    stubTool({ tool: 'image-to-video', extra: { '/video/models': LOCAL } });
    renderApp('/tools/video/image-to-video', userWith('ACTIVE'));
    expect(await screen.findByText('Cost: 4 credits')).toBeTruthy();
    // No prompt, nothing to say: the picture chooses the move.
    expect(screen.queryByText(/camera move/)).toBeNull();
    fireEvent.change(await prompt(), { target: { value: 'light sweeping across, sparkle' } });
    expect(await screen.findByText('Your prompt names no camera move, so the picture will choose one.')).toBeTruthy();
    expect(screen.getByText(/it does not add light, effects or anything else a prompt describes/)).toBeTruthy();
    fireEvent.change(await prompt(), { target: { value: 'slow zoom in, sparkle' } });
    expect(await screen.findByText('Reelsmith motion makes the camera moves your prompt names.')).toBeTruthy();
    fireEvent.change(await prompt(), { target: { value: '镜头缓慢推近' } });
    expect(await screen.findByText('Reelsmith motion makes the camera moves your prompt names.')).toBeTruthy();
  });

  it('says nothing of camera moves when a vendor model makes the video', async () => {
    stubTool({ tool: 'image-to-video', extra: { '/video/models': MODELS } });
    renderApp('/tools/video/image-to-video', userWith('ACTIVE'));
    fireEvent.change(await prompt(), { target: { value: 'light sweeping across, sparkle' } });
    expect(await screen.findByText('Cost: 20 credits')).toBeTruthy();
    expect(screen.queryByText(/camera move/)).toBeNull();
  });

  it("quotes the server's own engine at its own price, asking for no vendor price", async () => {
    const { calls } = stubTool({ tool: 'image-to-video', extra: { '/video/models': LOCAL } });
    renderApp('/tools/video/image-to-video', userWith('ACTIVE'));
    expect(await screen.findByText('Cost: 4 credits')).toBeTruthy();
    fireEvent.click(within(screen.getByRole('group', { name: 'Duration' })).getByText('10 s'));
    fireEvent.click(within(screen.getByRole('group', { name: 'Quality' })).getByText('Pro'));
    fireEvent.click(within(screen.getByRole('group', { name: 'Number of outputs' })).getByText('2'));
    expect(await screen.findByText('Cost: 20 credits')).toBeTruthy();
    // Never the vendor's price, not even for a moment while the models load.
    expect(calls.filter((call) => call.startsWith('/points/skuPrice')).every((call) => call.includes('img2VideoLocal_'))).toBe(true);
    // The model that will make the video is shown chosen, by name: the built-in engine in the user's language, not
    // by its internal id, and no "Recommended model" that names nothing.
    expect(await screen.findByText('Reelsmith motion (built in)')).toBeTruthy();
    expect(screen.queryByText('Recommended model')).toBeNull();
  });
});
