import { TEMPLATE_IDS } from '@reelsmith/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../shared/i18n/i18n';
import { FakeXhr } from '../../../test/fakeXhr';
import { ok } from '../../../test/renderApp';
import { ANA, openProjectPage, resetProjectPages, storedUpload } from '../project/pageTesting';
import { currentProject } from '../project/store';
import { emptyProduct, newProject, type Product } from '../project/types';

vi.setConfig({ testTimeout: 30_000 });

afterEach(resetProjectPages);

const picture = { fileId: 'f1', fileName: 'mug.jpg', fileUrl: 'https://cdn/mug.jpg', resKey: 'u/1/f1.jpg', format: 'jpg' };

/** The edit-product page of a project whose draft holds `product`; answers what each call was sent. */
function openEditor(product: Partial<Product>, routes: Parameters<typeof openProjectPage>[2] = {}) {
  const project = {
    ...newProject('p1', 'https://shop.example/mug'),
    product: { ...emptyProduct(), productImages: [picture], ...product },
  };
  return openProjectPage('/tools/link-to-video/edit-product', project, {
    '/brand-kit/get': { status: 404, body: { code: 404, message: 'Not found.', data: null } },
    '/link-video/templates': { record: TEMPLATE_IDS.map((templateId) => ({ templateId, previewUrl: `https://thumbs/${templateId}.jpg` })) },
    '/task/v1/link-video/submit': { record: { taskId: 't2' } },
    '/task/v1/link-video/query': ok({ taskId: 't2', status: 'IN_PROGRESS' }),
    '/video/avatar/engine': ok({ engine: null }),
    ...routes,
  });
}

describe('edit product: pictures from the computer', () => {
  it('uploads a picture into the library with its progress and adds it to the product', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    FakeXhr.last = null;
    const stored = storedUpload('n1', 'side.png');
    const project = {
      ...newProject('p1', 'https://shop.example/mug'),
      product: { ...emptyProduct(), productName: 'Mug', productImages: [picture] },
    };
    const { sent } = openProjectPage('/tools/link-to-video/edit-product', project, {
      '/brand-kit/get': { status: 404, body: { code: 404, message: 'Not found.', data: null } },
      '/link-video/templates': { record: [] },
      '/file/user/put-url': { record: { uploadUrl: '/reelsmith/api/file/upload?k=1', resKey: stored.resKey, method: 'PUT', headers: {} } },
      '/assert/uploadFileWithUrl': { record: stored },
    });
    fireEvent.click(await screen.findByRole('button', { name: /From my computer/ }));
    const input = screen.getByLabelText<HTMLInputElement>('From my computer');
    const file = new File([new Uint8Array([137, 80, 78, 71])], 'side.png', { type: 'image/png' });
    fireEvent.change(input, { target: { files: [file] } });
    await waitFor(() => expect(FakeXhr.last?.body).toBe(file));
    act(() => FakeXhr.last?.progress(40, 100));
    expect(await screen.findByRole('progressbar', { name: 'Uploading side.png… 40%' })).toBeTruthy();
    act(() => FakeXhr.last?.answer(200, JSON.stringify({ code: 0, message: 'ok', data: true })));
    await waitFor(() => expect(currentProject()?.product?.productImages.map((i) => i.fileId)).toEqual(['f1', 'n1']));
    expect(sent['/assert/uploadFileWithUrl']).toEqual([{ resKey: stored.resKey, fileName: 'side.png' }]);
    await waitFor(() => expect(screen.queryByRole('progressbar')).toBeNull());
  });
});

describe('edit product: offer and template', () => {
  it('shows the price the analysis found, and says what is wrong with a typed one once the field is left', async () => {
    openEditor({ productName: 'Mug', productPrice: '54.90', productListPrice: '69.90', productCurrency: 'EUR', productBrand: 'Acme' });
    const price = await screen.findByRole('textbox', { name: 'Price' });
    expect(price).toHaveProperty('value', '54.90');
    expect(screen.getByRole('textbox', { name: 'Price before sale (optional)' })).toHaveProperty('value', '69.90');
    expect(screen.getByRole('textbox', { name: 'Brand' })).toHaveProperty('value', 'Acme');
    expect(screen.getByRole('combobox', { name: 'Currency' }).closest('.ant-select')?.textContent).toContain('EUR');

    fireEvent.focus(price);
    fireEvent.change(price, { target: { value: '54.' } });
    // Not while it is being typed.
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.blur(price);
    expect((await screen.findByRole('alert')).textContent).toBe('Enter the price as a number, such as 54.90.');
    expect(price.getAttribute('aria-invalid')).toBe('true');

    fireEvent.change(price, { target: { value: '79.90' } });
    expect((await screen.findByRole('alert')).textContent).toBe('The price before sale must be higher than the price.');
    fireEvent.change(price, { target: { value: '' } });
    expect((await screen.findByRole('alert')).textContent).toBe('Enter the price too, or leave the price before sale empty.');
    fireEvent.change(screen.getByRole('textbox', { name: 'Price before sale (optional)' }), { target: { value: '' } });
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    expect(currentProject()?.product).toMatchObject({ productPrice: '', productListPrice: '' });
  });

  it('writes the analysed price with a decimal comma in Portuguese, and keeps it as one number', async () => {
    await i18n.changeLanguage('pt');
    try {
      const { sent } = openEditor({ productName: 'Caneca', productPrice: '59.90', productListPrice: '69.90', productCurrency: 'BRL' });
      expect(await screen.findByRole('textbox', { name: 'Preço' })).toHaveProperty('value', '59,90');
      expect(screen.getByRole('textbox', { name: 'Preço antes da promoção (opcional)' })).toHaveProperty('value', '69,90');
      await waitFor(() => expect(sent['/link-video/templates']?.[0]).toMatchObject({ price: '59.90', listPrice: '69.90' }));
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('does not generate with a wrong price, and says why', async () => {
    const { sent } = openEditor({ productName: 'Mug', productPrice: '12.345', productCurrency: 'USD' });
    fireEvent.click(await screen.findByRole('button', { name: 'Generate videos' }));
    expect(await screen.findByText('Enter the price as a number, such as 54.90.')).toBeTruthy();
    expect(sent['/task/v1/link-video/submit']).toBeUndefined();
  });

  it('shows the six templates drawn from the product’s first picture, automatic first; the chosen one goes with link-video', async () => {
    const { sent, router } = openEditor({ productName: 'Mug', productPrice: '54,90', productCurrency: 'BRL', productBrand: 'Acme' });
    const picker = await screen.findByRole('radiogroup', { name: 'Template' });
    const choices = within(picker).getAllByRole('radio');
    expect(choices.map((radio) => radio.closest('label')?.textContent)).toEqual([
      'Automatic',
      'Clean studio',
      'Bold UGC',
      'Minimal luxury',
      'Sale',
      'Feature list',
      'Problem → solution',
    ]);
    expect(within(picker).getByRole('radio', { name: 'Automatic' })).toHaveProperty('checked', true);
    await waitFor(() => expect(picker.querySelector('label:nth-child(5) img')?.getAttribute('src')).toBe('https://thumbs/sale.jpg'));
    // The user's own product in each style: their picture, name and offer, in the video's shape.
    expect(sent['/link-video/templates']?.[0]).toEqual({ fileId: 'f1', aspectRatio: '9:16', name: 'Mug', price: '54.90', currency: 'BRL' });

    fireEvent.click(within(picker).getByRole('radio', { name: 'Sale' }));
    expect(within(picker).getByRole('radio', { name: 'Sale' })).toHaveProperty('checked', true);
    expect(currentProject()?.editorConfig.templateId).toBe('sale');
    fireEvent.click(screen.getByRole('button', { name: 'Generate videos' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/tools/link-to-video/preview'));
    expect(sent['/task/v1/link-video/submit']?.[0]).toMatchObject({
      productOffer: { price: '54.90', currency: 'BRL' },
      productBrand: 'Acme',
      editorConfig: { templateId: 'sale' },
    });
  });

  it('puts a saved presenter in every preview, where the seller places them, with the link-video submit', async () => {
    const { sent, router } = openEditor(
      { productName: 'Mug' },
      {
        '/video/avatar/engine': ok({ engine: 'sandbox' }),
        '/video/avatar/presenters': ok([ANA]),
        '/points/skuPrice': ok({ skuCode: 'avatarVideo', price: 3, standIn: false }),
      },
    );
    const panel = await screen.findByRole('region', { name: 'Presenter' });
    // No place to choose before there is a presenter.
    expect(within(panel).queryByRole('combobox', { name: 'Where they stand' })).toBeNull();
    fireEvent.click(await within(panel).findByRole('button', { name: /^Ana/ }));
    expect(currentProject()?.editorConfig.presenterId).toBe('cat-1');
    const place = await within(panel).findByRole('combobox', { name: 'Where they stand' });
    fireEvent.mouseDown(place);
    fireEvent.click(await screen.findByTitle('Split screen'));
    expect(currentProject()?.editorConfig.presenterLayout).toBe('split');
    fireEvent.click(screen.getByRole('button', { name: 'Generate videos' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/tools/link-to-video/preview'));
    expect(sent['/task/v1/link-video/submit']?.[0]).toMatchObject({ editorConfig: { presenterId: 'cat-1', presenterLayout: 'split' } });
  });

  it('offers no presenter where no one can make one talk', async () => {
    openEditor({ productName: 'Mug' });
    await screen.findByRole('radiogroup', { name: 'Template' });
    expect(screen.queryByRole('region', { name: 'Presenter' })).toBeNull();
  });

  it('draws the sample product while no picture of the product is stored yet', async () => {
    const { sent } = openEditor({ productName: 'Mug', productImages: [] });
    await screen.findByRole('radiogroup', { name: 'Template' });
    await waitFor(() => expect(sent['/link-video/templates']).toEqual([{ aspectRatio: '9:16' }]));
  });
});
