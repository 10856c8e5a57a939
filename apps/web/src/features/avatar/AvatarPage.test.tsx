import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ok, renderApp, userWith } from '../../test/renderApp';
import { inHistory, libraryImage, libraryOf, stubTool } from '../generation/testing';

// Mounting the whole app with antd's styles is slow on a shared 2-core machine, and polls come 2 s apart.
vi.setConfig({ testTimeout: 60_000 });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const LIBRARY = libraryOf(libraryImage('face', { fileName: 'presenter.png', fileUrl: 'http://files.test/face.png' }));
const VOICES = ok([
  { voiceId: 'en-ava', name: 'Ava', gender: 'female', language: 'en', recommended: true, sampleUrl: null, offline: true },
  { voiceId: 'en-leo', name: 'Leo', gender: 'male', language: 'en', recommended: true, sampleUrl: null, offline: true },
]);
const MUSIC = ok([{ musicId: 'spark', name: 'Spark', mood: 'upbeat', recommended: true, sampleUrl: null }]);
const EXTRA = { '/assert/folders/files': LIBRARY, '/link-video/voices': VOICES, '/link-video/music': MUSIC };
const SCRIPT = 'Meet Lumi, the lamp that follows the sun. It charges by day and glows all night. Tap the link to get yours.';

const script = () => screen.findByRole('textbox', { name: 'Script' });
const generate = () => fireEvent.click(screen.getByRole('button', { name: 'Generate' }));

describe('the Avatar tool', () => {
  it('is reached from the sidebar, no longer "coming soon"', async () => {
    stubTool({ tool: 'avatar-video', extra: EXTRA });
    renderApp('/tools/avatar', userWith('ACTIVE'));
    expect(await screen.findByRole('heading', { name: 'Avatar' })).toBeTruthy();
    const link = screen.getAllByRole('link', { name: 'Avatar' })[0] as HTMLElement;
    expect(link.getAttribute('href')).toBe('/tools/avatar');
    expect(screen.queryByText('coming soon')).toBeNull();
  });

  it('needs a presenter and words to say, and prices the script per second as it is typed', async () => {
    const { submitted } = stubTool({ tool: 'avatar-video', extra: EXTRA });
    renderApp('/tools/avatar', userWith('ACTIVE'));
    generate();
    expect((await screen.findByRole('alert')).textContent).toBe('Please add a photo of the presenter');
    fireEvent.click(screen.getByRole('button', { name: /Choose from my assets/ }));
    fireEvent.click(await screen.findByRole('checkbox', { name: 'presenter.png' }));
    fireEvent.click(screen.getByRole('button', { name: 'Use' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Please enter what the presenter says');
    // 22 words and three sentences: 22 / 2.5 + 3 × 0.3 = 9.7, so 10 s at 3 credits a second.
    fireEvent.change(await script(), { target: { value: SCRIPT } });
    expect(await screen.findByText('About 10 s of video')).toBeTruthy();
    expect(await screen.findByText('Cost: 30 credits')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    // Longer than a presenter video may run: said before anything is sent.
    fireEvent.change(await script(), { target: { value: 'word '.repeat(240) } });
    generate();
    expect((await screen.findByRole('alert')).textContent).toBe('The script is too long: a presenter video runs at most 90 s');
    expect(submitted).toEqual([]);
  });

  it('submits the portrait, script, language, voice, music and shape, then shows the playable video', async () => {
    const { submitted } = stubTool({
      tool: 'avatar-video',
      queries: [
        { status: 'IN_PROGRESS', progress: 'animating' },
        { status: 'SUCCESS', videos: [{ resKey: 'u/u1/a1.mp4', url: 'http://files.test/a1.mp4', posterUrl: 'http://files.test/a1.webp' }] },
      ],
      extra: EXTRA,
    });
    renderApp('/tools/avatar', userWith('ACTIVE'));
    fireEvent.click(screen.getByRole('button', { name: /Choose from my assets/ }));
    fireEvent.click(await screen.findByRole('checkbox', { name: 'presenter.png' }));
    fireEvent.click(screen.getByRole('button', { name: 'Use' }));
    fireEvent.change(await script(), { target: { value: ` ${SCRIPT} ` } });
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Voice' }));
    fireEvent.click(await screen.findByText('Leo · male'));
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Music' }));
    fireEvent.click(await screen.findByText('Spark'));
    fireEvent.click(within(screen.getByRole('group', { name: 'Ratio' })).getByText('1:1'));
    generate();
    await waitFor(() => expect(submitted).toHaveLength(1), { timeout: 30_000 });
    expect(submitted[0]).toEqual({
      script: SCRIPT,
      presenter: { resKey: 'u/u1/face.png' },
      language: 'en',
      voiceId: 'en-leo',
      musicId: 'spark',
      ratio: '1:1',
    });
    // The history shows what was said, then the video.
    await inHistory((history) => history.getByText(SCRIPT));
    const video = await inHistory((history) => history.getByLabelText('Video 1'));
    expect(video.getAttribute('src')).toBe('http://files.test/a1.mp4');
  });
});
