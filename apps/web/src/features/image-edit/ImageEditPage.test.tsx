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

const generate = () => fireEvent.click(screen.getByRole('button', { name: 'Generate' }));
const choose = (group: string, option: string) => fireEvent.click(within(screen.getByRole('group', { name: group })).getByText(option));
const tab = (name: string) => fireEvent.click(screen.getByRole('tab', { name }));

const BOTTLE = libraryImage('f1', { fileName: 'bottle.png', width: 1200, height: 900 });
const POSTER = libraryImage('f2', { fileName: 'poster.png', width: 2400, height: 1600 });
const BACKGROUNDS = ok([
  { backgroundId: 'beach', name: 'Beach', imageUrl: 'http://files.test/beach.png', category: 'outdoor' },
  { backgroundId: 'studio', name: 'Studio', imageUrl: 'http://files.test/studio.png', category: 'indoor' },
]);

describe('image edit', () => {
  it('starts with the asset the assets page linked, and removes its background', async () => {
    const { submitted, calls } = stubTool({
      tool: 'remove-background',
      queries: [{ status: 'SUCCESS', images: [{ resKey: 'u/u1/cut.png', url: 'http://files.test/cut.png' }] }],
      extra: { '/assert/folders/files': libraryOf(POSTER, BOTTLE) },
    });
    renderApp('/tools/image-edit?fileId=f1', userWith('ACTIVE'));
    expect(await screen.findByAltText('bottle.png')).toBeTruthy();
    expect(await screen.findByText('Cost: 2 credits')).toBeTruthy();
    generate();
    await waitFor(() => expect(submitted).toEqual([{ resKey: 'u/u1/f1.png' }]));
    await waitFor(() => expect(calls).toContain('/points/refresh'));
    const result = await inHistory((history) => history.getByAltText('Image 1'));
    expect(result.getAttribute('src')).toBe('http://files.test/cut.png');
  });

  it('needs a product image, and a background to replace with', async () => {
    const { submitted } = stubTool({
      tool: 'product-background',
      extra: {
        '/assert/folders/files': libraryOf(libraryImage('f3', { fileName: 'drawn.png', source: 'generated', standIn: true }), BOTTLE),
        '/mis/product-background/list': BACKGROUNDS,
      },
    });
    renderApp('/tools/image-edit', userWith('ACTIVE'));
    choose('Background', 'Replace background');
    generate();
    expect((await screen.findByRole('alert')).textContent).toBe('Please add a product image');

    fireEvent.click(within(screen.getByRole('group', { name: 'Product image' })).getByText('Choose from my assets'));
    // A stand-in's picture says so among the user's own (decision "Stand-ins are free").
    const tile = (name: string) => screen.getByRole('checkbox', { name }).closest('li') as HTMLElement;
    await screen.findByRole('checkbox', { name: 'drawn.png' });
    expect(within(tile('drawn.png')).getByText('Stand-in')).toBeTruthy();
    expect(within(tile('bottle.png')).queryByText('Stand-in')).toBeNull();
    fireEvent.click(await screen.findByRole('checkbox', { name: 'bottle.png' }));
    fireEvent.click(screen.getByRole('button', { name: 'Use' }));
    await screen.findByAltText('bottle.png');
    // Checked again as the form changes: the image's message gives way to the next problem at once.
    expect((await screen.findByRole('alert')).textContent).toBe('Please choose a background');

    fireEvent.click(await screen.findByAltText('Studio'));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    generate();
    await waitFor(() => expect(submitted).toEqual([{ resKey: 'u/u1/f1.png', backgroundId: 'studio' }]));
  });

  it('keeps one history for both background modes, each record labelled with its mode', async () => {
    const asked: unknown[] = [];
    const rows = [
      record('product-background', 'replaced', { status: 'SUCCESS', input: { resKey: 'u/u1/f1.png' } }),
      record('remove-background', 'removed', {
        status: 'SUCCESS',
        input: { resKey: 'u/u1/f1.png' },
        outputs: [{ resKey: 'u/u1/cut.png', url: 'http://files.test/cut.png' }],
      }),
    ];
    stubTool({
      tool: 'remove-background',
      extra: {
        '/assert/folders/files': libraryOf(BOTTLE),
        '/mis/product-background/list': BACKGROUNDS,
        '/generation/history': (body) => {
          asked.push(body);
          return ok(rows);
        },
      },
    });
    renderApp('/tools/image-edit?fileId=f1', userWith('ACTIVE'));
    const removed = await inHistory((history) => history.getByAltText('Image 1'));
    expect(removed.getAttribute('src')).toBe('http://files.test/cut.png');
    const labels = () => within(screen.getByRole('region', { name: 'Generation history' })).getAllByText(/background$/);
    expect(labels().map((label) => label.textContent)).toEqual(['Replace background', 'Remove background']);

    choose('Background', 'Replace background');
    await screen.findByAltText('Studio');
    // The result made in the other mode is still there, and the history was not asked for again.
    expect((await inHistory((history) => history.getByAltText('Image 1'))).getAttribute('src')).toBe('http://files.test/cut.png');
    expect(asked).toEqual([{ tool: ['remove-background', 'product-background'], page: 1, pageSize: 20 }]);
  });

  it('refuses to enhance a picture longer than 1920 px, and sends n = 1 with the scale', async () => {
    const { submitted } = stubTool({
      tool: 'enlarge-image',
      queries: [{ status: 'FAILURE', error: JSON.stringify({ message: 'Generation failed' }) }],
      extra: { '/assert/folders/files': libraryOf(POSTER, BOTTLE) },
    });
    const { router } = renderApp('/tools/image-edit?fileId=f2', userWith('ACTIVE'));
    await screen.findByAltText('poster.png');
    tab('HD enhancement');
    // No vendor upscaler answers here: the form names the local engine for what it is.
    expect((await screen.findByRole('note')).textContent).toContain('Sharpen and enlarge');
    generate();
    expect((await screen.findByRole('alert')).textContent).toBe("The image's longest side must be at most 1920 px");
    expect(submitted).toEqual([]);

    await router.navigate('/tools/image-edit?fileId=f1');
    await screen.findByAltText('bottle.png');
    choose('Enlarge', '4×');
    generate();
    await waitFor(() => expect(submitted).toEqual([{ resKey: 'u/u1/f1.png', scale: 4, n: 1 }]));
    await inHistory((history) => history.getByText("Don't worry, your credits remain unchanged"));
    await inHistory((history) => history.getByText('Generation failed'));
  });

  it('names the vendor upscaler when the service reports one for enhancement', async () => {
    stubTool({
      tool: 'enlarge-image',
      extra: {
        '/assert/folders/files': libraryOf(BOTTLE),
        '/health': ok({ db: 'ok', queue: 'ok', storage: 'ok', engine: { providers: { upscale: 'fal' } } }),
      },
    });
    renderApp('/tools/image-edit?fileId=f1', userWith('ACTIVE'));
    await screen.findByAltText('bottle.png');
    tab('HD enhancement');
    await waitFor(() => expect(screen.getByRole('note').textContent).toContain('AI upscaling (fal)'));
    expect(screen.getByRole('note').textContent).not.toContain('Sharpen and enlarge');
  });

  it('extends to a ratio around the picture, and shows an error state when the picture cannot be loaded', async () => {
    const { submitted } = stubTool({ tool: 'expand-image', extra: { '/assert/folders/files': libraryOf(BOTTLE) } });
    renderApp('/tools/image-edit?fileId=f1', userWith('ACTIVE'));
    await screen.findByAltText('bottle.png');
    tab('Image extension');
    expect(await screen.findByText('Cost: 3 credits')).toBeTruthy();
    choose('Extend to', '9:16');
    fireEvent.error(await screen.findByTestId('extend-source'));
    expect(await screen.findByText('The picture could not be loaded')).toBeTruthy();
    generate();
    await waitFor(() =>
      expect(submitted).toEqual([{ resKey: 'u/u1/f1.png', ratio: '9:16', canvas: { width: 1200, height: 2133, left: 0, top: 616 } }]),
    );

    choose('Extend to', 'Free size');
    fireEvent.change(screen.getByRole('spinbutton', { name: 'Canvas width' }), { target: { value: '1500' } });
    // The first submission's answer may still be on its way: the button is back once it has landed.
    fireEvent.click(await screen.findByRole('button', { name: 'Generate' }));
    await waitFor(() =>
      expect(submitted[1]).toEqual({ resKey: 'u/u1/f1.png', canvas: { width: 1500, height: 1350, left: 300, top: 225 } }),
    );
  });
});
