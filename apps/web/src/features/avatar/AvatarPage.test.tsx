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
const SANDBOX = ok({ engine: 'sandbox' });
const EXTRA = {
  '/assert/folders/files': LIBRARY,
  '/link-video/voices': VOICES,
  '/link-video/music': MUSIC,
  '/video/avatar/engine': SANDBOX,
  '/video/avatar/presenters': ok([]),
};
const presenter = (presenterId: string, name: string, source: 'catalogue' | 'own') => ({
  presenterId,
  name,
  gender: 'female',
  languages: ['en'],
  voiceId: null,
  imageUrl: `http://files.test/${presenterId}.jpg`,
  source,
});
const SCRIPT = 'Meet Lumi, the lamp that follows the sun. It charges by day and glows all night. Tap the link to get yours.';

const script = () => screen.findByRole('textbox', { name: 'Script' });
const generate = () => fireEvent.click(screen.getByRole('button', { name: 'Generate' }));
/** What the form says is wrong, above Generate (the page's own notices are alerts too). */
const problem = () => within(screen.getByTestId('submit-bar')).findByRole('alert');

describe('the Avatar tool', () => {
  it('is reached from the sidebar, no longer "coming soon"', async () => {
    stubTool({ tool: 'avatar-video', extra: EXTRA });
    renderApp('/tools/avatar', userWith('ACTIVE'));
    expect(await screen.findByRole('heading', { name: 'Avatar' })).toBeTruthy();
    const link = screen.getAllByRole('link', { name: 'Avatar' })[0] as HTMLElement;
    expect(link.getAttribute('href')).toBe('/tools/avatar');
    expect(screen.queryByText('coming soon')).toBeNull();
    // This server's presenters are the sandbox's stand-ins: the page says so before anyone pays for one.
    expect(await screen.findByText(/Videos are free, marked stand-ins/)).toBeTruthy();
  });

  it('says the tool is unavailable on a server without a lip-sync vendor', async () => {
    stubTool({ tool: 'avatar-video', extra: { ...EXTRA, '/video/avatar/engine': ok({ engine: null }) } });
    renderApp('/tools/avatar', userWith('ACTIVE'));
    expect(await screen.findByText('The Avatar tool is not available on this server yet. Nothing will be charged.')).toBeTruthy();
    expect(screen.queryByText(/Videos are free, marked stand-ins/)).toBeNull();
  });

  it('needs a presenter and words to say, and prices the script per second as it is typed', async () => {
    // Credits enough for the longest script: what is checked here is the form, not the balance (decision "Short of credits").
    const rich = ok({ totalPoints: 1000, availablePoints: 1000, usedPoints: 0, expiredPoints: 0, expiring: [] });
    const { submitted } = stubTool({ tool: 'avatar-video', extra: { ...EXTRA, '/points/account': rich, '/points/refresh': rich } });
    renderApp('/tools/avatar', userWith('ACTIVE'));
    generate();
    expect((await problem()).textContent).toBe('Please add a photo of the presenter');
    fireEvent.click(screen.getByRole('button', { name: /Choose from my assets/ }));
    fireEvent.click(await screen.findByRole('checkbox', { name: 'presenter.png' }));
    fireEvent.click(screen.getByRole('button', { name: 'Use' }));
    expect((await problem()).textContent).toBe("Please confirm you have the right to use this person's face");
    fireEvent.click(screen.getByRole('checkbox', { name: "I have the right to use this person's face in my videos" }));
    expect((await problem()).textContent).toBe('Please enter what the presenter says');
    // 22 words and three sentences: 22 / 2.5 + 3 × 0.3 = 9.7, so 10 s at 3 credits a second.
    fireEvent.change(await script(), { target: { value: SCRIPT } });
    expect(await screen.findByText('About 10 s of video')).toBeTruthy();
    expect(await screen.findByText('Cost: 30 credits')).toBeTruthy();
    await waitFor(() => expect(within(screen.getByTestId('submit-bar')).queryByRole('alert')).toBeNull());
    // Longer than a presenter video may run: said before anything is sent.
    fireEvent.change(await script(), { target: { value: 'word '.repeat(240) } });
    generate();
    expect((await problem()).textContent).toBe('The script is too long: a presenter video runs at most 90 s');
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
    fireEvent.click(screen.getByRole('checkbox', { name: "I have the right to use this person's face in my videos" }));
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
      consent: true,
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

  it('offers the saved presenters as tiles: one is chosen without a consent of its own, a photo is kept as mine, mine can be removed', async () => {
    const saved: unknown[] = [];
    const removed: unknown[] = [];
    const list = [presenter('cat-1', 'Ana', 'catalogue'), presenter('own-1', 'Old me', 'own')];
    const { submitted } = stubTool({
      tool: 'avatar-video',
      extra: {
        ...EXTRA,
        '/video/avatar/presenters': (body) => {
          if (body === undefined) return ok(list);
          saved.push(body);
          const made = presenter('own-2', 'Me', 'own');
          list.unshift(made);
          return ok(made);
        },
        '/video/avatar/presenters/remove': (body) => {
          removed.push(body);
          list.splice(
            list.findIndex((p) => p.presenterId === (body as { presenterId: string }).presenterId),
            1,
          );
          return ok({});
        },
      },
    });
    renderApp('/tools/avatar', userWith('ACTIVE'));
    const tiles = await screen.findByRole('list', { name: 'Saved presenters' });
    fireEvent.click(within(tiles).getByRole('button', { name: /^Ana/ }));
    fireEvent.change(await script(), { target: { value: SCRIPT } });
    generate();
    await waitFor(() => expect(submitted).toHaveLength(1), { timeout: 30_000 });
    expect(submitted[0]).toMatchObject({ presenter: { presenterId: 'cat-1' } });
    expect(submitted[0]).not.toHaveProperty('consent');

    // A photo of my own, kept: saved with my statement, then chosen (the presenter's picture, before the product's).
    fireEvent.click(screen.getAllByRole('button', { name: /Choose from my assets/ })[0] as HTMLElement);
    fireEvent.click(await screen.findByRole('checkbox', { name: 'presenter.png' }));
    fireEvent.click(screen.getByRole('button', { name: 'Use' }));
    fireEvent.click(await screen.findByRole('checkbox', { name: "I have the right to use this person's face in my videos" }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Name this presenter to keep them' }), { target: { value: ' Me ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save as my presenter' }));
    await waitFor(() => expect(saved).toEqual([{ resKey: 'u/u1/face.png', name: 'Me', gender: 'female', consent: true }]));
    const mine = await within(await screen.findByRole('list', { name: 'Saved presenters' })).findByRole('button', { name: /^Me\b/ });
    await waitFor(() => expect(mine.getAttribute('aria-pressed')).toBe('true'));

    // The catalogue's cannot be removed; my own can.
    expect(screen.queryByRole('button', { name: 'Remove Ana' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Remove Old me' }));
    await waitFor(() => expect(removed).toEqual([{ presenterId: 'own-1' }]));
    await waitFor(() => expect(screen.queryByRole('button', { name: /^Old me/ })).toBeNull());
  });

  /** The product-holding task's answers: each submit recorded, and the presenter it makes added to the saved ones. */
  function holdingService(made: ReturnType<typeof presenter>, list: ReturnType<typeof presenter>[], taskId: string) {
    const holding: unknown[] = [];
    const answers = {
      '/video/avatar/presenters': () => ok(list),
      '/task/v1/product-holding/submit': (body: unknown) => {
        holding.push(body);
        list.unshift(made);
        return ok({ taskId });
      },
      '/task/v1/product-holding/query': ok({ taskId, status: 'SUCCESS', presenter: made }),
    };
    return { holding, answers };
  }

  /** Chooses the saved presenter Ana, then the library picture `fileName` as the product: the section it fills. */
  async function productInHandOf(fileName: string) {
    fireEvent.click(within(await screen.findByRole('list', { name: 'Saved presenters' })).getByRole('button', { name: /^Ana/ }));
    const section = await screen.findByRole('region', { name: 'Product in hand' });
    fireEvent.click(within(section).getByRole('button', { name: /Choose from my assets/ }));
    fireEvent.click(await screen.findByRole('checkbox', { name: fileName }));
    fireEvent.click(screen.getByRole('button', { name: 'Use' }));
    return section;
  }

  it('puts a product in a saved presenter’s hands at its price, and chooses the presenter holding it', async () => {
    const held = presenter('own-9', 'Ana with the product', 'own');
    const { holding, answers } = holdingService(held, [presenter('cat-1', 'Ana', 'catalogue')], 'hold-1');
    stubTool({
      tool: 'avatar-video',
      extra: {
        ...EXTRA,
        '/assert/folders/files': libraryOf(libraryImage('lamp', { fileName: 'lamp.png', fileUrl: 'http://files.test/lamp.png' })),
        ...answers,
      },
    });
    renderApp('/tools/avatar', userWith('ACTIVE'));
    // Only a saved presenter can be given the product.
    await screen.findByRole('list', { name: 'Saved presenters' });
    expect(screen.queryByRole('region', { name: 'Product in hand' })).toBeNull();
    const section = await productInHandOf('lamp.png');
    fireEvent.click(await within(section).findByRole('button', { name: 'Hold the product (4 credits)' }));
    await waitFor(() => expect(holding).toEqual([{ presenterId: 'cat-1', fileId: 'lamp', name: 'Ana with the product' }]));
    // The presenter holding it is chosen for the video.
    const tiles = await screen.findByRole('list', { name: 'Saved presenters' });
    const tile = await within(tiles).findByRole('button', { name: /^Ana with the product/ }, { timeout: 10_000 });
    await waitFor(() => expect(tile.getAttribute('aria-pressed')).toBe('true'));
  });

  it('dresses the presenter in a garment instead, at a try-on’s price, where the server has a try-on engine', async () => {
    const worn = presenter('own-8', 'Ana wearing the product', 'own');
    const { holding, answers } = holdingService(worn, [presenter('cat-1', 'Ana', 'catalogue')], 'wear-1');
    stubTool({
      tool: 'avatar-video',
      extra: {
        ...EXTRA,
        '/health': ok({ db: 'ok', queue: 'ok', storage: 'ok', engine: { providers: { virtualTryOn: 'sandbox' } } }),
        '/assert/folders/files': libraryOf(libraryImage('shirt', { fileName: 'shirt.png', fileUrl: 'http://files.test/shirt.png' })),
        ...answers,
      },
    });
    renderApp('/tools/avatar', userWith('ACTIVE'));
    const section = await productInHandOf('shirt.png');
    // Held unless they are to wear it; worn, it costs what a try-on costs.
    expect(await within(section).findByRole('button', { name: 'Hold the product (4 credits)' })).toBeTruthy();
    fireEvent.mouseDown(await within(section).findByRole('combobox', { name: 'How they show it' }));
    fireEvent.click(await screen.findByText('Wear it as a top'));
    fireEvent.click(await within(section).findByRole('button', { name: 'Put it on (8 credits)' }));
    await waitFor(() =>
      expect(holding).toEqual([{ presenterId: 'cat-1', fileId: 'shirt', name: 'Ana wearing the product', garmentType: 'top' }]),
    );
    const tiles = await screen.findByRole('list', { name: 'Saved presenters' });
    const tile = await within(tiles).findByRole('button', { name: /^Ana wearing the product/ }, { timeout: 10_000 });
    await waitFor(() => expect(tile.getAttribute('aria-pressed')).toBe('true'));
  });

  it('offers only holding where the server has no try-on engine', async () => {
    const { calls } = stubTool({
      tool: 'avatar-video',
      extra: {
        ...EXTRA,
        '/health': ok({ db: 'ok', queue: 'ok', storage: 'ok', engine: { providers: { virtualTryOn: null } } }),
        '/assert/folders/files': libraryOf(libraryImage('lamp', { fileName: 'lamp.png', fileUrl: 'http://files.test/lamp.png' })),
        '/video/avatar/presenters': ok([presenter('cat-1', 'Ana', 'catalogue')]),
      },
    });
    renderApp('/tools/avatar', userWith('ACTIVE'));
    const section = await productInHandOf('lamp.png');
    expect(await within(section).findByRole('button', { name: 'Hold the product (4 credits)' })).toBeTruthy();
    // The server has said it cannot dress anyone: no choice of wearing it.
    await waitFor(() => expect(calls).toContain('/health'));
    expect(within(section).queryByRole('combobox', { name: 'How they show it' })).toBeNull();
  });

  it('writes the script from a product link into the script box, in the language the page answers in', async () => {
    const asked: unknown[] = [];
    const { submitted } = stubTool({
      tool: 'avatar-video',
      extra: {
        ...EXTRA,
        '/video/avatar/presenters': ok([presenter('cat-1', 'Ana', 'catalogue')]),
        '/video/avatar/script': (body) => {
          asked.push(body);
          return ok({ script: '还在找好灯吗？来看看 Lumi 太阳能灯。', productName: 'Lumi', language: 'zh' });
        },
      },
    });
    renderApp('/tools/avatar', userWith('ACTIVE'));
    const link = await screen.findByRole('textbox', { name: 'Write the script from a product link (optional)' });
    // Not a link: said at once, nothing asked.
    fireEvent.change(link, { target: { value: 'lumi lamp' } });
    fireEvent.click(screen.getByRole('button', { name: 'Write from link' }));
    expect((await screen.findByText('Please enter a product link starting with http:// or https://')).getAttribute('role')).toBe('alert');
    expect(asked).toHaveLength(0);
    fireEvent.change(link, { target: { value: ' https://shop.example/products/lumi ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Write from link' }));
    await waitFor(() => expect(asked).toEqual([{ productLink: 'https://shop.example/products/lumi', language: 'en' }]));
    await waitFor(async () =>
      expect((await script()).getAttribute('value') ?? (await script()).textContent).toBe('还在找好灯吗？来看看 Lumi 太阳能灯。'),
    );
    // The script is in Chinese: the video is made in Chinese.
    fireEvent.click(within(await screen.findByRole('list', { name: 'Saved presenters' })).getByRole('button', { name: /^Ana/ }));
    generate();
    await waitFor(() => expect(submitted).toHaveLength(1), { timeout: 30_000 });
    expect(submitted[0]).toMatchObject({ script: '还在找好灯吗？来看看 Lumi 太阳能灯。', language: 'zh' });
  });

  it('makes a presenter from a description with the image tool, at its price, and offers the picture to keep', async () => {
    const asked: unknown[] = [];
    stubTool({
      tool: 'avatar-video',
      extra: {
        ...EXTRA,
        '/image/generate': (body) => {
          asked.push(body);
          return ok({ taskId: 'made-1' });
        },
        '/task/v1/text-to-image/query': ok({
          taskId: 'made-1',
          status: 'SUCCESS',
          images: [{ resKey: 'u/u1/made.png', url: 'http://files.test/made.png' }],
        }),
      },
    });
    renderApp('/tools/avatar', userWith('ACTIVE'));
    const field = await screen.findByRole('searchbox', { name: 'Or make one from a description' });
    expect(await screen.findByRole('button', { name: /Make \(4 credits\)/ })).toBeTruthy();
    fireEvent.change(field, { target: { value: 'a friendly woman in her thirties' } });
    fireEvent.click(screen.getByRole('button', { name: /Make \(4 credits\)/ }));
    await waitFor(() => expect(asked).toHaveLength(1));
    expect(asked[0]).toMatchObject({ ratio: '3:4', count: 1 });
    expect((asked[0] as { prompt: string }).prompt).toContain('a friendly woman in her thirties');
    expect((asked[0] as { prompt: string }).prompt).toContain('looking straight at the camera');
    // The made picture is the photo now: consented to, it may be kept or used.
    const made = await screen.findByRole('img', { name: 'a friendly woman in her thirties.png' }, { timeout: 10_000 });
    expect(made.getAttribute('src')).toBe('http://files.test/made.png');
    expect(await screen.findByRole('checkbox', { name: "I have the right to use this person's face in my videos" })).toBeTruthy();
  });
});
