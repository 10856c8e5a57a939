import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../shared/i18n/i18n';
import { FakeXhr } from '../../test/fakeXhr';
import { ok, renderApp, userWith } from '../../test/renderApp';
import { inHistory, libraryImage, record, stubTool } from '../generation/testing';

// Mounting the whole app with antd's styles is slow on a shared 2-core machine, and polls come 2 s apart.
vi.setConfig({ testTimeout: 60_000 });

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

const generate = () => fireEvent.click(screen.getByRole('button', { name: 'Generate' }));
const history = () => screen.getByRole('region', { name: 'Generation history' });
const choose = (group: string, option: string) => fireEvent.click(within(screen.getByRole('group', { name: group })).getByText(option));

/** A server with a second text-to-image model: "Detailed" is offered beside "Fast". */
const BOTH_MODELS = ok(['v1', 'v2']);
const DEMOS = ok([
  { category: 'lipstick', name: 'Lipstick', prompt: 'A red lipstick on marble, soft light', imageUrl: 'http://files.test/l.png' },
  { category: 'sofa', name: 'Sofa', prompt: 'A green velvet sofa in a sunny room', imageUrl: 'http://files.test/s.png' },
]);

describe('text to image', () => {
  it('refuses an empty prompt and shows the price of the chosen model times the count', async () => {
    const { submitted } = stubTool({ tool: 'text-to-image', extra: { '/mis/product-demo': DEMOS, '/image/models': BOTH_MODELS } });
    renderApp('/tools/image/text-to-image', userWith('ACTIVE'));
    expect(await screen.findByText('Cost: 4 credits')).toBeTruthy();
    await screen.findByText('Detailed');
    choose('Model', 'Detailed');
    choose('Number of outputs', '3');
    expect(await screen.findByText('Cost: 18 credits')).toBeTruthy();
    generate();
    expect((await screen.findByRole('alert')).textContent).toBe('Prompts cannot be empty');
    expect(submitted).toEqual([]);
  });

  it('says how many credits are missing and where to get them, and offers no Generate the balance cannot pay', async () => {
    const short = ok({ totalPoints: 6, availablePoints: 6, usedPoints: 0, expiredPoints: 0, expiring: [] });
    const { submitted } = stubTool({
      tool: 'text-to-image',
      extra: { '/mis/product-demo': DEMOS, '/points/account': short, '/points/refresh': short, '/image/models': BOTH_MODELS },
    });
    renderApp('/tools/image/text-to-image', userWith('ACTIVE'));
    expect(await screen.findByText('Cost: 4 credits')).toBeTruthy();
    expect(screen.queryByText(/more credits? for this/)).toBeNull();
    await screen.findByText('Detailed');
    choose('Model', 'Detailed');
    choose('Number of outputs', '3');
    expect(await screen.findByText('Cost: 18 credits')).toBeTruthy();
    expect((await screen.findByRole('alert')).textContent).toBe('You need 12 more credits for this. Get credits');
    expect(screen.getByRole('link', { name: 'Get credits' }).getAttribute('href')).toBe('/account/credits');
    expect((screen.getByRole('button', { name: 'Generate' }) as HTMLButtonElement).disabled).toBe(true);
    expect(submitted).toEqual([]);
  });

  it('names its models by what they do, and offers no "Detailed" where the server has no second model', async () => {
    const { submitted } = stubTool({ tool: 'text-to-image', extra: { '/mis/product-demo': DEMOS, '/image/models': ok(['v1']) } });
    renderApp('/tools/image/text-to-image', userWith('ACTIVE'));
    expect(await screen.findByText('Cost: 4 credits')).toBeTruthy();
    expect(screen.queryByRole('group', { name: 'Model' })).toBeNull();
    expect(screen.queryByText(/Image model/)).toBeNull();
    fireEvent.change(screen.getByRole('textbox', { name: 'Prompt' }), { target: { value: 'A lamp' } });
    generate();
    await waitFor(() => expect(submitted).toHaveLength(1));
    expect(submitted[0]).toMatchObject({ imageModel: 'v1' });
  });

  it('says before submitting that the sandbox stands in, free, where no AI service does the work', async () => {
    const { calls } = stubTool({ tool: 'text-to-image', extra: { '/mis/product-demo': DEMOS }, standIns: ['imageGen', 'imageGenV2'] });
    renderApp('/tools/image/text-to-image', userWith('ACTIVE'));
    expect(await screen.findByText('Free · stand-in')).toBeTruthy();
    // Drawn, not edited: the quote names the work, which a reference picture would change.
    expect(calls.some((call) => call.startsWith('/points/skuPrice') && call.includes('madeBy=textToImage'))).toBe(true);
    expect(screen.queryByText(/^Cost:/)).toBeNull();
    expect(screen.getByText(/makes a free stand-in marked “SANDBOX”: a sample of the layout, not a real result/)).toBeTruthy();
  });

  it('fills the prompt from an inspiration chip, submits, and shows the pictures that enlarge', async () => {
    const { submitted, calls } = stubTool({
      tool: 'text-to-image',
      queries: [
        { status: 'IN_PROGRESS', progress: 'rendering' },
        {
          status: 'SUCCESS',
          images: [
            { resKey: 'u/u1/i1.png', url: 'http://files.test/i1.png' },
            { resKey: 'u/u1/i2.png', url: 'http://files.test/i2.png' },
          ],
        },
      ],
      extra: { '/mis/product-demo': DEMOS },
    });
    renderApp('/tools/image/text-to-image', userWith('ACTIVE'));
    fireEvent.click(await screen.findByText('Sofa'));
    expect((screen.getByRole('textbox', { name: 'Prompt' }) as HTMLTextAreaElement).value).toBe('A green velvet sofa in a sunny room');
    choose('Ratio', '3:4');
    choose('Number of outputs', '2');
    generate();
    await waitFor(() => expect(submitted).toHaveLength(1));
    expect(submitted[0]).toEqual({
      prompt: 'A green velvet sofa in a sunny room',
      ratio: '3:4',
      imageModel: 'v1',
      quality: 'standard',
      count: 2,
    });
    await waitFor(() => expect(calls).toContain('/points/refresh'));
    const picture = await inHistory((history) => history.getByAltText('Image 2'));
    expect(picture.getAttribute('src')).toBe('http://files.test/i2.png');
    const download = await inHistory((history) => history.getAllByRole('link', { name: 'Download' })[1] as HTMLElement);
    // Saved under a name that says what it is, not the stored file's random id.
    expect(download.getAttribute('download')).toMatch(/^reelsmith-text-to-image-\d{8}-\d{4}-2\.png$/);
  });

  it('names a stand-in’s pictures as such in the history, as soon as they are made and afterwards', async () => {
    const made = { status: 'SUCCESS' as const, outputs: [{ resKey: 'u/u1/old.png', url: 'http://files.test/old.png' }] };
    stubTool({
      tool: 'text-to-image',
      standIns: ['imageGen', 'imageGenV2'],
      queries: [{ status: 'SUCCESS', images: [{ resKey: 'u/u1/new.png', url: 'http://files.test/new.png' }], standIn: true }],
      history: [record('text-to-image', 'drawn', { ...made, standIn: true }), record('text-to-image', 'real', made)],
      extra: { '/mis/product-demo': DEMOS },
    });
    renderApp('/tools/image/text-to-image', userWith('ACTIVE'));
    /** A history entry by what it asked (antd may measure a long prompt in a copy of it). */
    const entry = (prompt: string) => {
      const found = [...history().querySelectorAll<HTMLElement>('li[data-status]')].find((li) => li.textContent?.includes(prompt));
      if (!found) throw new Error(`no entry "${prompt}"`);
      return found;
    };
    const tag = await inHistory(() => within(entry('prompt of drawn')).getByText('Stand-in'));
    expect(tag.getAttribute('title')).toBe('Made by the free stand-in, not a real AI model: a placeholder with a SANDBOX mark.');
    expect(within(history()).getAllByText('Stand-in')).toHaveLength(1);
    expect(within(entry('prompt of real')).queryByText('Stand-in')).toBeNull();

    fireEvent.change(screen.getByRole('textbox', { name: 'Prompt' }), { target: { value: 'A lamp' } });
    generate();
    await inHistory(() => within(entry('A lamp')).getByAltText('Image 1'));
    expect(within(entry('A lamp')).getByText('Stand-in')).toBeTruthy();
  });

  it('names a stand-in’s pictures in the history in Portuguese', async () => {
    await i18n.changeLanguage('pt');
    stubTool({
      tool: 'text-to-image',
      history: [
        record('text-to-image', 'drawn', {
          status: 'SUCCESS',
          outputs: [{ resKey: 'u/u1/old.png', url: 'http://files.test/old.png' }],
          standIn: true,
        }),
      ],
      extra: { '/mis/product-demo': DEMOS },
    });
    renderApp('/tools/image/text-to-image', userWith('ACTIVE'));
    const tag = await screen.findByText('Substituto');
    expect(tag.getAttribute('title')).toMatch(/^Feito pelo substituto grátis, não por um modelo de IA real/);
  });

  it('shows the two failure messages for a failed task already in the history', async () => {
    stubTool({
      tool: 'text-to-image',
      history: [record('text-to-image', 'gone', { status: 'FAILURE', error: 'Generation failed' })],
      extra: { '/mis/product-demo': DEMOS },
    });
    renderApp('/tools/image/text-to-image', userWith('ACTIVE'));
    expect(await screen.findByText("Don't worry, your credits remain unchanged")).toBeTruthy();
    expect(within(history()).getByText('Generation failed')).toBeTruthy();
  });
});

const HUMANS = ok([
  { modelId: 'm1', name: 'Mia', imageUrl: 'http://files.test/mia.png', gender: 'female' },
  { modelId: 'm2', name: 'Leo', imageUrl: 'http://files.test/leo.png', gender: 'male' },
]);
const CLOTHS = ok([
  { templateId: 't1', name: 'White tee', imageUrl: 'http://files.test/tee.png', garmentType: 'top' },
  { templateId: 'b1', name: 'Blue jeans', imageUrl: 'http://files.test/jeans.png', garmentType: 'bottom' },
  { templateId: 'd1', name: 'Red dress', imageUrl: 'http://files.test/dress.png', garmentType: 'onePiece' },
]);

/** The start of a PNG of the given size: what the browser check reads. */
function pngFile(width: number, height: number, name = 'shirt.png'): File {
  const bytes = new Uint8Array(33);
  bytes.set([137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82]);
  new DataView(bytes.buffer).setUint32(16, width);
  new DataView(bytes.buffer).setUint32(20, height);
  return new File([bytes], name, { type: 'image/png' });
}

describe('AI model try-on', () => {
  it('needs a model and clothes; two pieces send a top and a bottom with the chosen model', async () => {
    const { submitted } = stubTool({ tool: 'virtual-try-on', extra: { '/image/getHumanInfo': HUMANS, '/image/getClothInfo': CLOTHS } });
    renderApp('/tools/image/ai-model', userWith('ACTIVE'));
    expect(await screen.findByText('Cost: 8 credits')).toBeTruthy();
    generate();
    expect((await screen.findByRole('alert')).textContent).toBe('Please choose a model and clothes');

    fireEvent.click(await screen.findByAltText('Leo'));
    choose('Clothing type', 'Two pieces');
    fireEvent.click(await screen.findByAltText('White tee'));
    generate();
    expect((await screen.findByRole('alert')).textContent).toBe('Please choose a model and clothes');
    fireEvent.click(screen.getByAltText('Blue jeans'));
    generate();
    await waitFor(() => expect(submitted).toHaveLength(1));
    expect(submitted[0]).toEqual({
      garmentType: 'twoPieces',
      model: { modelId: 'm2' },
      top: { templateId: 't1' },
      bottom: { templateId: 'b1' },
      count: 1,
    });
  });

  it('checks a clothing picture in the browser, then asks the service, and says what it found', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    FakeXhr.last = null;
    const { calls } = stubTool({
      tool: 'virtual-try-on',
      extra: {
        '/image/getHumanInfo': HUMANS,
        '/image/getClothInfo': CLOTHS,
        '/file/user/put-url': ok({
          uploadUrl: '/reelsmith/api/file/user/put/abc',
          resKey: 'u/u1/upload/abc.png',
          method: 'PUT',
          headers: {},
        }),
        '/assert/uploadFileWithUrl': ok(
          libraryImage('c1', { fileName: 'shirts.png', fileUrl: 'http://files.test/shirts.png', width: 1000, height: 1200 }),
        ),
        '/image/getClothDesc': ok({ ok: false, reason: 'multipleClothes', garmentType: null, description: 'two shirts' }),
      },
    });
    renderApp('/tools/image/ai-model', userWith('ACTIVE'));
    const input = await screen.findByLabelText('Your own Top picture file');
    fireEvent.change(input, { target: { files: [pngFile(400, 1000)] } });
    expect(
      await screen.findByText(
        'Please upload a JPG/JPEG/PNG image of at most 10 MB, with the shorter side at least 512 px and the longer side at most 4096 px',
      ),
    ).toBeTruthy();
    expect(calls.some((call) => call.startsWith('/file/user/put-url'))).toBe(false);

    fireEvent.change(input, { target: { files: [pngFile(1000, 1200, 'shirts.png')] } });
    await waitFor(() => expect(FakeXhr.last).not.toBeNull());
    act(() => FakeXhr.last?.answer(200, ''));
    expect(await screen.findByText('Multiple clothes detected')).toBeTruthy();
    // Asked by the stored file's key, not its signed link (which the service took for a key and did not find).
    expect(calls).toContain(`/image/getClothDesc?url=${encodeURIComponent('u/u1/c1.png')}`);
    expect(screen.queryByRole('img', { name: 'shirts.png' })).toBeNull();
  });

  it('explains good clothing pictures in the guideline modal', async () => {
    stubTool({ tool: 'virtual-try-on', extra: { '/image/getHumanInfo': HUMANS, '/image/getClothInfo': CLOTHS } });
    renderApp('/tools/image/ai-model', userWith('ACTIVE'));
    fireEvent.click(await screen.findByRole('button', { name: 'Clothing picture guidelines' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Use a flat white background with nothing else in the picture.')).toBeTruthy();
  });
});
