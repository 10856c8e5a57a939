import type { CaptionStyle, MusicTrack, Voice } from '@reelsmith/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ok } from '../../../test/renderApp';
import { openProjectPage, resetProjectPages } from '../project/pageTesting';
import { currentProject } from '../project/store';
import { emptyProduct, newProject, type Project } from '../project/types';

vi.setConfig({ testTimeout: 30_000 });

afterEach(resetProjectPages);

const voice = (voiceId: string, language: Voice['language'], recommended: boolean, gender: Voice['gender'] = 'female'): Voice => ({
  voiceId,
  name: `Voice ${voiceId}`,
  gender,
  language,
  recommended,
  sampleUrl: `https://samples/voice/${voiceId}.wav`,
  offline: true,
});
const VOICES = [
  voice('en-other', 'en', false),
  voice('en-ava', 'en', true),
  voice('en-ben', 'en', true, 'male'),
  voice('zh-li', 'zh', true),
];
const MUSIC: MusicTrack[] = [
  { musicId: 'calm', name: 'Calm', mood: 'calm', recommended: false, sampleUrl: 'https://samples/music/calm.m4a' },
  { musicId: 'upbeat', name: 'Upbeat', mood: 'upbeat', recommended: true, sampleUrl: 'https://samples/music/upbeat.m4a' },
];
const CAPTIONS: CaptionStyle[] = ['karaoke', 'pop', 'keywords', 'one-word', 'classic', 'boxed'].map((captionId) => ({
  captionId,
  name: captionId,
  previewUrl: `https://samples/caption/${captionId}.png?language=en&v=2`,
}));

/** The preview page of a project with one preview being edited, its editor config as given. */
function openEditor(editorConfig: Project['editorConfig'] = {}) {
  const project: Project = {
    ...newProject('p1', 'https://shop.example/bottle'),
    editorConfig,
    product: { ...emptyProduct(), productName: 'Insulated bottle for your day' },
    taskId: 't1',
    taskPath: 'link-video',
    taskStatus: 'SUCCESS',
    preview: {
      previewVideos: [{ resKey: 'v1', scriptId: 's1', videoUrl: 'https://cdn/v1.mp4', taskId: 't1', templateId: 'clean-studio' }],
      scriptContentList: [{ scriptId: 's1', segments: [{ segId: 0, segText: 'Meet the bottle.' }] }],
    },
    editedScriptId: 's1',
  };
  return openProjectPage('/tools/link-to-video/preview', project, {
    // The service answers the language asked for, as it filters.
    '/link-video/voices': (_body, query) => ok(VOICES.filter((v) => v.language === query.get('language'))),
    '/link-video/music': ok(MUSIC),
    '/link-video/captions': { record: CAPTIONS },
    '/link-video/templates': ok([]),
  });
}

const section = async (name: string) =>
  within(await screen.findByRole('complementary', { name: 'Quick editor' })).findByRole('region', { name });

describe('quick editor: the current choices and the subtitle styles', () => {
  it('opens on the defaults the service renders with: the language’s first recommended voice, the first recommended track, the first style', async () => {
    const { sent } = openEditor();
    const voices = await section('Voice');
    await waitFor(() => expect(within(voices).getByRole('radio', { name: 'Voice en-ava' })).toHaveProperty('checked', true));
    // Only the video's language is offered.
    expect(within(voices).queryByRole('radio', { name: 'Voice zh-li' })).toBeNull();
    const music = await section('Music');
    await waitFor(() => expect(within(music).getByRole('radio', { name: 'Upbeat' })).toHaveProperty('checked', true));
    const captions = await section('Subtitle style');
    await waitFor(() => expect(within(captions).getByRole('radio', { name: 'Word highlight' })).toHaveProperty('checked', true));
    // The previews are asked for in the video's language.
    expect(sent['/link-video/captions']).toEqual([{ language: 'en' }]);
    // The built-in voices say what a user gets from them, in a user's words: no setting or README is named
    // (those are the operator's, told at start-up).
    const hint = within(voices).getByText(/built-in voices/);
    expect(hint.textContent).toContain('sound synthetic');
    expect(hint.textContent).not.toMatch(/TTS_PROVIDER|README|operator/);
  });

  it('opens on the editor config’s choices, the other voices’ tab open when the voice is one of them', async () => {
    openEditor({ voiceId: 'en-other', musicId: 'calm', captionId: 'boxed' });
    const voices = await section('Voice');
    await waitFor(() => expect(within(voices).getByRole('radio', { name: 'Voice en-other' })).toHaveProperty('checked', true));
    expect(within(await section('Music')).getByRole('radio', { name: 'Calm' })).toHaveProperty('checked', true);
    const captions = await section('Subtitle style');
    await waitFor(() => expect(within(captions).getByRole('radio', { name: 'Boxed' })).toHaveProperty('checked', true));
    expect(within(captions).getByRole('radio', { name: 'Word highlight' })).toHaveProperty('checked', false);
  });

  it('shows each style as its rendered thumbnail with its name, and a choice autosaves', async () => {
    openEditor();
    const captions = await section('Subtitle style');
    const tiles = await within(captions).findAllByRole('radio');
    expect(tiles).toHaveLength(CAPTIONS.length);
    const names = tiles.map((tile) => tile.closest('label')?.textContent);
    expect(names).toEqual(['Word highlight', 'Pop-in words', 'Key words', 'One word', 'Clean sentence', 'Boxed']);
    for (const [i, tile] of tiles.entries()) {
      expect(tile.closest('label')?.querySelector('img')?.getAttribute('src')).toBe(CAPTIONS[i]?.previewUrl);
    }
    fireEvent.click(within(captions).getByRole('radio', { name: 'One word' }));
    await waitFor(() => expect(currentProject()?.editorConfig.captionId).toBe('one-word'));
  });

  it('plays one sample at a time: a voice’s sample stops the track’s', async () => {
    const play = vi.spyOn(window.HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
    const pause = vi.spyOn(window.HTMLMediaElement.prototype, 'pause').mockReturnValue(undefined);
    openEditor();
    // Each query looks inside its own section: a role query over the whole page re-runs on every change of a large
    // tree, which under a loaded test run took longer than the test may.
    const music = await section('Music');
    fireEvent.click(await within(music).findByRole('button', { name: 'Play a sample of Upbeat' }));
    expect(play).toHaveBeenCalledTimes(1);
    expect(within(music).getByRole('button', { name: 'Stop the sample of Upbeat' })).toBeTruthy();
    const voices = await section('Voice');
    fireEvent.click(await within(voices).findByRole('button', { name: 'Play a sample of Voice en-ava' }));
    expect(play).toHaveBeenCalledTimes(2);
    expect(pause).toHaveBeenCalledTimes(1);
    expect(within(music).getByRole('button', { name: 'Play a sample of Upbeat' })).toBeTruthy();
    expect((play.mock.contexts[1] as HTMLAudioElement).src).toBe('https://samples/voice/en-ava.wav');
    // Listening does not choose.
    expect(currentProject()?.editorConfig.voiceId).toBeUndefined();
    fireEvent.click(within(voices).getByRole('button', { name: 'Stop the sample of Voice en-ava' }));
    expect(pause).toHaveBeenCalledTimes(2);
    play.mockRestore();
    pause.mockRestore();
  });
});
