import { TEMPLATE_IDS, type TemplateId } from '@reelsmith/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ok } from '../../../test/renderApp';
import { ANA, openProjectPage, resetProjectPages } from '../project/pageTesting';
import { currentProject } from '../project/store';
import { emptyProduct, newProject, type ProjectAsset } from '../project/types';

vi.setConfig({ testTimeout: 30_000 });

afterEach(resetProjectPages);

const picture: ProjectAsset = { fileId: 'f1', fileName: 'mug.jpg', fileUrl: 'https://cdn/mug.jpg', resKey: 'u/1/f1.jpg', format: 'jpg' };
const video = (n: number, templateId: TemplateId) => ({
  resKey: `v${n}`,
  scriptId: `s${n}`,
  videoUrl: `https://cdn/v${n}.mp4`,
  taskId: 't1',
  templateId,
});
const script = (n: number) => ({ scriptId: `s${n}`, segments: [{ segId: 0, segText: `Line ${n}.` }] });

/** The saved presenters the service lists: the catalogue's Ana; and how often the page asked for them. */
const SAVED_PRESENTERS = ok([ANA]);
let presentersAsked = 0;

/** The preview page of a project with two previews, the first being edited; answers what each call was sent. */
function openPreview(
  images: ProjectAsset[] = [picture],
  { videos = [video(1, 'clean-studio'), video(2, 'bold-ugc')], engine = null as 'sandbox' | null, available = 100, exporting = false } = {},
) {
  const project = {
    ...newProject('p1', 'https://shop.example/mug'),
    product: { ...emptyProduct(), productName: 'Mug', productImages: images },
    ...(exporting
      ? { taskId: 't4', taskPath: 'export-video' as const, taskStatus: 'IN_PROGRESS' as const }
      : { taskId: 't1', taskPath: 'link-video' as const, taskStatus: 'SUCCESS' as const }),
    preview: { previewVideos: videos, scriptContentList: [script(1), script(2)] },
    editedScriptId: 's1',
  };
  return openProjectPage('/tools/link-to-video/preview', project, {
    '/link-video/voices': ok([]),
    '/link-video/music': ok([]),
    '/link-video/captions': ok([]),
    '/link-video/templates': ok(TEMPLATE_IDS.map((templateId) => ({ templateId, previewUrl: `https://thumbs/${templateId}.jpg` }))),
    '/task/v1/script-update/submit': { record: { taskId: 't3' } },
    '/task/v1/script-update/query': ok({ taskId: 't3', status: 'IN_PROGRESS' }),
    '/points/skuPrice': (_body, query) =>
      ok({ skuCode: query.get('skuCode'), price: query.get('skuCode') === 'avatarVideo' ? 3 : 30, standIn: false }),
    '/video/avatar/engine': ok({ engine }),
    '/points/account': ok({ totalPoints: available, availablePoints: available, usedPoints: 0, expiredPoints: 0, expiring: [] }),
    '/task/v1/product-holding/submit': { record: { taskId: 't5' } },
    '/task/v1/product-holding/query': ok({
      taskId: 't5',
      status: 'SUCCESS',
      presenter: {
        presenterId: 'own-9',
        name: 'Ana with the product',
        gender: 'female',
        languages: ['en'],
        voiceId: null,
        imageUrl: 'https://cdn/held.png',
        source: 'own',
      },
    }),
    '/video/avatar/presenters': () => {
      presentersAsked++;
      return SAVED_PRESENTERS;
    },
    '/task/v1/export-video/submit': { record: { taskId: 't4' } },
    '/task/v1/export-video/query': ok({ taskId: 't4', status: 'IN_PROGRESS' }),
  });
}

describe('preview: templates and the AI-generated label', () => {
  it('names each preview’s template', async () => {
    openPreview();
    const previews = await screen.findByRole('list', { name: 'Previews' });
    expect(
      within(previews)
        .getAllByText(/^Template: /)
        .map((item) => item.textContent),
    ).toEqual(['Template: Clean studio', 'Template: Bold UGC']);
  });

  it('selects the edited video’s template, and choosing another re-renders that video in it at once', async () => {
    const { sent } = openPreview();
    const editor = await screen.findByRole('complementary', { name: 'Quick editor' });
    // Buttons, not radios: a choice acts at once, so arrow keys must not make one.
    const picker = await within(editor).findByRole('group', { name: 'Template' });
    // No automatic choice here: a video is in one template.
    expect(within(picker).getAllByRole('button')).toHaveLength(6);
    const pressed = () =>
      within(picker)
        .getAllByRole('button', { pressed: true })
        .map((button) => button.textContent);
    expect(pressed()).toEqual(['Clean studio']);

    fireEvent.click(within(picker).getByRole('button', { name: 'Feature list' }));
    await waitFor(() => expect(sent['/task/v1/script-update/submit']).toHaveLength(1));
    expect(sent['/task/v1/script-update/submit']?.[0]).toMatchObject({
      taskId: 't1',
      scriptId: 's1',
      resultNum: 1,
      scriptContents: [{ segId: 0, segText: 'Line 1.' }],
      templateId: 'feature-list',
    });
    expect(currentProject()).toMatchObject({
      taskPath: 'script-update',
      taskId: 't3',
      taskStatus: expect.stringMatching(/SUBMITTED|IN_PROGRESS/),
    });
    // While it renders, the choice shows as made and the picker waits.
    await waitFor(() => expect(pressed()).toEqual(['Feature list']));
    expect(within(picker).getByRole('button', { name: 'Sale' })).toHaveProperty('disabled', true);
  });

  it('follows the video being edited', async () => {
    openPreview();
    fireEvent.click((await screen.findAllByRole('button', { name: 'Edit' }))[0] as HTMLElement);
    const editor = screen.getByRole('complementary', { name: 'Quick editor' });
    const picker = await within(editor).findByRole('group', { name: 'Template' });
    await waitFor(() => expect(within(picker).getByRole('button', { name: 'Bold UGC' }).getAttribute('aria-pressed')).toBe('true'));
  });

  it('leaves the AI-generated label off for pictures from the shop, and sends what the switch says', async () => {
    const { sent } = openPreview();
    const label = await screen.findByRole('switch', { name: 'AI-generated label' });
    expect(label.getAttribute('aria-checked')).toBe('false');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Video 1' }));
    fireEvent.click(screen.getByRole('switch', { name: 'AI-generated label' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Render 1 video · 30 credits' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Yes, render' }));
    await waitFor(() => expect(sent['/task/v1/export-video/submit']).toHaveLength(1));
    expect(sent['/task/v1/export-video/submit']?.[0]).toMatchObject({ scriptId: 's1', aiLabel: true });
  });

  it('turns the AI-generated label on when a picture came from the generation tools', async () => {
    const { sent } = openPreview([picture, { ...picture, fileId: 'f2', origin: 'generated' }]);
    const label = await screen.findByRole('switch', { name: 'AI-generated label' });
    expect(label.getAttribute('aria-checked')).toBe('true');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Video 2' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Render 1 video · 30 credits' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Yes, render' }));
    await waitFor(() => expect(sent['/task/v1/export-video/submit']).toHaveLength(1));
    expect(sent['/task/v1/export-video/submit']?.[0]).toMatchObject({ scriptId: 's2', aiLabel: true });
  });

  it('back from a running export, says it is rendering and offers to follow it instead of a second Render', async () => {
    const { router } = openPreview([picture], { exporting: true });
    expect(
      await screen.findByText('Your videos are rendering. Follow them on the export page; rendering again now would charge again.'),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Render/ })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'See the export' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/tools/link-to-video/video-export'));
  });

  it('shows the price of the render on its button and asks before spending it, saying what will be left', async () => {
    const { sent } = openPreview();
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Video 1' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Video 2' }));
    // The 15 s export price (30) for each of the two.
    fireEvent.click(await screen.findByRole('button', { name: 'Render 2 videos · 60 credits' }));
    expect(await screen.findByText('Render 2 videos for 60 credits?')).toBeTruthy();
    expect(await screen.findByText('You will have 40 credits left.')).toBeTruthy();
    // Not now: nothing is rendered, nothing spent.
    fireEvent.click(screen.getByRole('button', { name: 'Not now' }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sent['/task/v1/export-video/submit']).toBeUndefined();
  });

  it('at too few credits says how many are missing and how to earn them, instead of a confirmation it cannot keep', async () => {
    // At zero credits the confirmation said "You will have 0 credits left", and only "Yes" told the truth.
    const { sent } = openPreview([picture], { available: 0 });
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Video 1' }));
    const render = await screen.findByRole('button', { name: 'Render 1 video · 30 credits' });
    expect(await screen.findByText('You need 30 more credits for this.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Get credits' }).getAttribute('href')).toBe('/account/credits');
    expect(screen.getByRole('link', { name: 'Invite friends' }).getAttribute('href')).toBe('/account/invite');
    expect((render as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(render);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen.queryByText('Render 1 video for 30 credits?')).toBeNull();
    expect(sent['/task/v1/export-video/submit']).toBeUndefined();
  });
});

describe('preview: a presenter on camera (decision "Presenter in link to video")', () => {
  const presenterRegion = async () =>
    within(await screen.findByRole('complementary', { name: 'Quick editor' })).findByRole('region', { name: 'Presenter' });

  it('puts a saved presenter on camera in the edited video at once, and says the sandbox makes stand-ins', async () => {
    const { sent } = openPreview([picture], { engine: 'sandbox' });
    const panel = await presenterRegion();
    expect(within(panel).getByText(/adds 3 credits a second on camera/)).toBeTruthy();
    expect(within(panel).getByText(/marked stand-in/)).toBeTruthy();
    expect(within(panel).getByRole('button', { name: 'No presenter' })).toHaveProperty('disabled', true);
    fireEvent.click(await within(panel).findByRole('button', { name: /^Ana/ }));
    await waitFor(() => expect(sent['/task/v1/script-update/submit']).toHaveLength(1));
    expect(sent['/task/v1/script-update/submit']?.[0]).toMatchObject({ scriptId: 's1', presenterId: 'cat-1' });
  });

  it('takes the presenter off the video that has one, and counts their seconds into the render price', async () => {
    const withPresenter = { ...video(1, 'clean-studio'), presenterId: 'cat-1', presenterSeconds: 6 };
    const { sent } = openPreview([picture], { engine: 'sandbox', videos: [withPresenter, video(2, 'bold-ugc')] });
    const previews = await screen.findByRole('list', { name: 'Previews' });
    expect(within(previews).getByText('Presenter · 6 s on camera')).toBeTruthy();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Video 1' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Video 2' }));
    // Two exports at 30, and 6 s of presenter at 3 a second.
    expect(await screen.findByRole('button', { name: 'Render 2 videos · 78 credits' })).toBeTruthy();
    fireEvent.click(within(await presenterRegion()).getByRole('button', { name: 'No presenter' }));
    await waitFor(() => expect(sent['/task/v1/script-update/submit']).toHaveLength(1));
    expect(sent['/task/v1/script-update/submit']?.[0]).toMatchObject({ scriptId: 's1', presenterId: null });
  });

  it('puts the product in the chosen presenter’s hands, at its price, and puts the presenter holding it on camera', async () => {
    const withPresenter = { ...video(1, 'clean-studio'), presenterId: 'cat-1', presenterSeconds: 6 };
    const { sent } = openPreview([picture], { engine: 'sandbox', videos: [withPresenter, video(2, 'bold-ugc')] });
    const hold = await within(await presenterRegion()).findByRole('button', { name: 'Hold the product (30 credits)' });
    const asked = presentersAsked;
    fireEvent.click(hold);
    await waitFor(() => expect(sent['/task/v1/product-holding/submit']).toHaveLength(1));
    expect(sent['/task/v1/product-holding/submit']?.[0]).toEqual({
      presenterId: 'cat-1',
      fileId: picture.fileId,
      name: 'Ana with the product',
    });
    await waitFor(() => expect(sent['/task/v1/script-update/submit']).toHaveLength(1), { timeout: 10_000 });
    expect(sent['/task/v1/script-update/submit']?.[0]).toMatchObject({ scriptId: 's1', presenterId: 'own-9' });
    // The saved presenters are asked for again: the held one is among them now.
    await waitFor(() => expect(presentersAsked).toBeGreaterThan(asked));
  });

  it('puts the picture the user chooses in the presenter’s hands, the first until another is chosen', async () => {
    const second: ProjectAsset = {
      ...picture,
      fileId: 'f2',
      fileName: 'mug-side.jpg',
      fileUrl: 'https://cdn/mug-side.jpg',
      resKey: 'u/1/f2.jpg',
    };
    const withPresenter = { ...video(1, 'clean-studio'), presenterId: 'cat-1', presenterSeconds: 6 };
    const { sent } = openPreview([picture, second], { engine: 'sandbox', videos: [withPresenter, video(2, 'bold-ugc')] });
    const panel = await presenterRegion();
    const pictures = await within(panel).findByRole('radiogroup', { name: 'Which picture' });
    expect(within(pictures).getByRole('radio', { name: 'Picture 1' })).toHaveProperty('checked', true);
    fireEvent.click(within(pictures).getByRole('radio', { name: 'Picture 2' }));
    expect(within(pictures).getByRole('radio', { name: 'Picture 2' })).toHaveProperty('checked', true);
    fireEvent.click(await within(panel).findByRole('button', { name: 'Hold the product (30 credits)' }));
    await waitFor(() => expect(sent['/task/v1/product-holding/submit']).toHaveLength(1));
    expect(sent['/task/v1/product-holding/submit']?.[0]).toEqual({ presenterId: 'cat-1', fileId: 'f2', name: 'Ana with the product' });
  });

  it('moves the presenter onto a split screen (or into a corner) at once', async () => {
    const withPresenter = { ...video(1, 'clean-studio'), presenterId: 'cat-1', presenterSeconds: 6, presenterLayout: 'bookends' as const };
    const { sent } = openPreview([picture], { engine: 'sandbox', videos: [withPresenter, video(2, 'bold-ugc')] });
    const panel = await presenterRegion();
    const place = within(panel).getByRole('radiogroup', { name: 'Where they stand' });
    expect(within(place).getByRole('radio', { name: 'Start and end' })).toHaveProperty('checked', true);
    fireEvent.click(within(place).getByRole('radio', { name: 'Split screen' }));
    await waitFor(() => expect(sent['/task/v1/script-update/submit']).toHaveLength(1));
    expect(sent['/task/v1/script-update/submit']?.[0]).toMatchObject({ scriptId: 's1', presenterId: 'cat-1', presenterLayout: 'split' });
  });

  it('shows no choice of place for a video without a presenter', async () => {
    openPreview([picture], { engine: 'sandbox' });
    const panel = await presenterRegion();
    expect(within(panel).queryByRole('radiogroup', { name: 'Where they stand' })).toBeNull();
  });

  it('says lip sync settles at render only for a video with a presenter on camera', async () => {
    openPreview([picture], { engine: 'sandbox' });
    await presenterRegion();
    expect(screen.getByText('Your edits are saved automatically.')).toBeTruthy();
    expect(screen.queryByText('Lip sync becomes accurate only after rendering.')).toBeNull();
    resetProjectPages();
    const withPresenter = { ...video(1, 'clean-studio'), presenterId: 'cat-1', presenterSeconds: 6 };
    openPreview([picture], { engine: 'sandbox', videos: [withPresenter, video(2, 'bold-ugc')] });
    expect(await screen.findByText('Lip sync becomes accurate only after rendering.')).toBeTruthy();
  });

  it('offers no presenter where no one can make one talk', async () => {
    openPreview();
    await screen.findByRole('region', { name: 'Voice' });
    expect(screen.queryByRole('region', { name: 'Presenter' })).toBeNull();
  });
});

describe('preview: while the previews are made', () => {
  it('shows the time the server expects them to take, counted from its answer (decision "Progress estimates")', async () => {
    const project = {
      ...newProject('p1', 'https://shop.example/mug'),
      product: { ...emptyProduct(), productName: 'Mug', productImages: [picture] },
      taskId: 't1',
      taskPath: 'link-video' as const,
      taskStatus: 'IN_PROGRESS' as const,
    };
    openProjectPage('/tools/link-to-video/preview', project, {
      '/task/v1/link-video/query': ok({
        taskId: 't1',
        status: 'IN_PROGRESS',
        progress: 'animating',
        expectedSeconds: 60,
        elapsedSeconds: 15,
      }),
    });
    const timer = await screen.findByRole('timer');
    // 45 s when the answer came, a second less should a tick have passed since.
    expect(timer.textContent).toMatch(/^About 4[45] s left$/);
    expect(screen.getByText('Animating scenes').dataset.state).toBe('current');
  });
});
