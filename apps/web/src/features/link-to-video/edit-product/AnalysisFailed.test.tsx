import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeXhr } from '../../../test/fakeXhr';
import { ok } from '../../../test/renderApp';
import { openProjectPage, resetProjectPages, storedUpload } from '../project/pageTesting';
import { currentProject } from '../project/store';
import { emptyProduct, newProject, type Project, type ProjectAsset } from '../project/types';

vi.setConfig({ testTimeout: 30_000 });

afterEach(resetProjectPages);

const REASON = 'Analysis failed: the page answered with HTTP 403.';
const EDIT_PRODUCT = '/tools/link-to-video/edit-product';

/** A project whose analysis failed, as its draft holds it after a reload: no product, the task at FAILURE. */
const failedProject = (change: Partial<Project> = {}): Project => ({
  ...newProject('p1', 'https://shop.example/p/blocked'),
  taskPath: 'link-analysis',
  taskId: 't1',
  taskStatus: 'FAILURE',
  ...change,
});

/**
 * The edit-product page of a failed project on a service that names an untitled project after the first product
 * it is told (as the real one does) and answers that name to the header.
 */
function openFailed(project: Project, answers: Parameters<typeof openProjectPage>[2] = {}) {
  let serverName = 'Untitled project';
  const namedAfter: string[] = [];
  const page = openProjectPage(EDIT_PRODUCT, project, {
    '/task/v1/link-analysis/query': ok({ taskId: 't1', status: 'FAILURE', error: JSON.stringify({ message: REASON }) }),
    '/project/getProjectById': () =>
      ok({ projectId: 'p1', projectName: serverName, productLink: null, coverUrl: null, taskStatus: null, createTime: '', updateTime: '' }),
    '/project/nameAfterProduct': (body) => {
      const { productName } = body as { productName: string };
      namedAfter.push(productName);
      if (serverName === 'Untitled project') serverName = productName.trim();
      return ok({ projectName: serverName });
    },
    '/brand-kit/get': { status: 404, body: { code: 404, message: 'Not found.', data: null } },
    '/link-video/templates': ok([]),
    ...answers,
  });
  return { ...page, namedAfter };
}

const stored = storedUpload('n1', 'lamp.png');

describe('a failed analysis', () => {
  it('says why on the page, asked of the task when the project is opened again, and no longer only in a toast', async () => {
    openFailed(failedProject());
    const alert = await screen.findByText('The product could not be analysed');
    const box = alert.closest('.ant-alert') as HTMLElement;
    expect(await within(box).findByText(REASON)).toBeTruthy();
    expect(within(box).getByText(/Reelsmith browser extension/)).toBeTruthy();
    // Where to get it: the download this server makes for itself, with the steps.
    fireEvent.click(within(box).getByRole('button', { name: 'Get the browser extension' }));
    const dialog = screen.getByRole('dialog', { name: 'Install the Reelsmith extension for Chrome' });
    expect(within(dialog).getByRole('link', { name: 'Download the extension (.zip)' }).getAttribute('href')).toBe(
      '/reelsmith/api/extension/download',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    // The ways on: the link to correct, and the product by hand.
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Product link' }).value).toBe('https://shop.example/p/blocked');
    expect(screen.getByRole('region', { name: 'Enter the product yourself' })).toBeTruthy();
    expect(document.querySelector('.ant-message')?.textContent ?? '').not.toContain(REASON);
  });

  it('analyses a corrected link, and refuses one that is not a link', async () => {
    const { sent } = openFailed(failedProject({ htmlResKey: 'u/u1/capture/old.html' }), {
      '/task/v1/link-analysis/submit': { record: { taskId: 't2' } },
      '/task/v1/link-analysis/query': (_, query) =>
        query.get('taskId') === 't2'
          ? ok({ taskId: 't2', status: 'IN_PROGRESS' })
          : ok({ taskId: 't1', status: 'FAILURE', error: JSON.stringify({ message: REASON }) }),
    });
    const panel = await screen.findByRole('region', { name: 'Try another link' });
    const link = within(panel).getByRole('textbox', { name: 'Product link' });
    fireEvent.change(link, { target: { value: 'shop.example/p/2' } });
    fireEvent.click(within(panel).getByRole('button', { name: 'Analyse again' }));
    expect((await within(panel).findByRole('alert')).textContent).toBe('Please provide a valid product url');
    expect(sent['/task/v1/link-analysis/submit']).toBeUndefined();

    // The new link is analysed from the live page: the captured one belonged to the old link.
    fireEvent.change(link, { target: { value: ' https://shop.example/p/2 ' } });
    fireEvent.click(within(panel).getByRole('button', { name: 'Analyse again' }));
    expect(await screen.findByText('Analysing your product…')).toBeTruthy();
    expect(sent['/task/v1/link-analysis/submit']).toEqual([{ projectId: 'p1', productLink: 'https://shop.example/p/2' }]);
    expect(currentProject()).toMatchObject({ productLink: 'https://shop.example/p/2', taskId: 't2' });
    expect(currentProject()?.taskStatus).toMatch(/SUBMITTED|IN_PROGRESS/);
    expect(currentProject()).not.toHaveProperty('htmlResKey');
  });

  it('takes the product by hand: says what is missing, then goes on to the product editor and names the project after it', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    FakeXhr.last = null;
    const { namedAfter } = openFailed(failedProject(), {
      '/file/user/put-url': { record: { uploadUrl: '/reelsmith/api/file/upload?k=1', resKey: stored.resKey, method: 'PUT', headers: {} } },
      '/assert/uploadFileWithUrl': { record: stored },
    });
    const manual = await screen.findByRole('region', { name: 'Enter the product yourself' });
    fireEvent.click(within(manual).getByRole('button', { name: 'Continue' }));
    expect(
      within(manual)
        .getAllByRole('alert')
        .map((alert) => alert.textContent),
    ).toEqual(['Please enter the product name.', 'Please upload at least one picture.']);
    expect(document.activeElement).toBe(within(manual).getByRole('textbox', { name: 'Product name' }));

    fireEvent.change(within(manual).getByRole('textbox', { name: 'Product name' }), { target: { value: ' Brass desk lamp ' } });
    fireEvent.change(within(manual).getByRole('textbox', { name: 'Product description' }), {
      target: { value: 'Warm light, solid brass.' },
    });
    // A problem goes as soon as its field is put right; what was typed is in the draft.
    expect(
      within(manual)
        .getAllByRole('alert')
        .map((alert) => alert.textContent),
    ).toEqual(['Please upload at least one picture.']);
    expect(currentProject()?.manualProduct).toMatchObject({
      productName: ' Brass desk lamp ',
      productDescription: 'Warm light, solid brass.',
    });

    const file = new File([new Uint8Array([137, 80, 78, 71])], 'lamp.png', { type: 'image/png' });
    fireEvent.change(within(manual).getByLabelText('Upload pictures'), { target: { files: [file] } });
    await waitFor(() => expect(FakeXhr.last?.body).toBe(file));
    act(() => FakeXhr.last?.answer(200, JSON.stringify({ code: 0, message: 'ok', data: true })));
    expect(await within(manual).findByRole('img', { name: 'lamp.png' })).toBeTruthy();
    expect(within(manual).queryByRole('alert')).toBeNull();

    fireEvent.click(within(manual).getByRole('button', { name: 'Continue' }));
    // The product editor, as if the page had been read.
    await waitFor(() => expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Product name' }).value).toBe('Brass desk lamp'));
    expect(screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Product description' }).value).toBe('Warm light, solid brass.');
    expect(screen.getByRole('button', { name: 'Generate videos' })).toBeTruthy();
    expect(currentProject()?.product?.productImages.map((image) => image.fileId)).toEqual(['n1']);
    expect(currentProject()?.manualProduct).toBeNull();
    // Named after the product, and the header says so.
    expect(namedAfter).toEqual(['Brass desk lamp']);
    await waitFor(() => expect(within(screen.getByRole('banner')).getByText('Brass desk lamp')).toBeTruthy());
    expect(currentProject()).not.toHaveProperty('projectName');
  });
});

describe('pictures an analysis could not import', () => {
  const analysed = (mediaImport: Project['mediaImport'], images: ProjectAsset[] = []): Project => ({
    ...newProject('p1', 'https://shop.example/p'),
    taskPath: 'link-analysis',
    taskId: 't1',
    taskStatus: 'SUCCESS',
    product: { ...emptyProduct(), productName: 'Linen shirt', productImages: images },
    mediaImport,
  });

  it('says how many and why when none came, and offers upload right there', async () => {
    openFailed(analysed({ imagesFound: 3, imagesFailed: 3, videosFound: 0, videosFailed: 0, failure: 'refused' }));
    const notice = (await screen.findByText('3 pictures could not be imported: the shop refused the download.')).closest(
      '.ant-alert',
    ) as HTMLElement;
    expect(within(notice).getByText('Upload pictures from your computer to make the video.')).toBeTruthy();
    expect(within(notice).getByRole('button', { name: /Upload pictures/ })).toBeTruthy();
  });

  it('says the page had none', async () => {
    openFailed(analysed({ imagesFound: 0, imagesFailed: 0, videosFound: 0, videosFailed: 0 }));
    expect(await screen.findByText('The page has no pictures.')).toBeTruthy();
  });

  it('is a quiet line once the product has pictures, and nothing at all when every picture came', async () => {
    const picture = { fileId: 'f1', fileName: 'shirt.jpg', fileUrl: 'https://cdn/shirt.jpg', resKey: 'u/1/f1.jpg', format: 'jpg' };
    openFailed(analysed({ imagesFound: 4, imagesFailed: 1, videosFound: 0, videosFailed: 0, failure: 'notFound' }, [picture]));
    const line = await screen.findByText('1 picture could not be imported: the shop no longer has them.');
    expect(line.closest('.ant-alert')).toBeNull();
  });
});

describe('a product renamed in the editor', () => {
  it('renames the project named after it once the user leaves the field, and the header says so', async () => {
    let serverName = 'Linen shirt';
    const namedAfter: string[] = [];
    openFailed(
      {
        ...newProject('p1', 'https://shop.example/p'),
        taskPath: 'link-analysis',
        taskId: 't1',
        taskStatus: 'SUCCESS',
        product: { ...emptyProduct(), productName: 'Linen shirt' },
      },
      {
        '/task/v1/link-analysis/query': ok({ taskId: 't1', status: 'SUCCESS' }),
        '/project/getProjectById': () =>
          ok({
            projectId: 'p1',
            projectName: serverName,
            productLink: null,
            coverUrl: null,
            taskStatus: null,
            createTime: '',
            updateTime: '',
          }),
        // The service's rule for a project its product named: it follows the product's new name.
        '/project/nameAfterProduct': (body) => {
          namedAfter.push((body as { productName: string }).productName);
          serverName = (body as { productName: string }).productName.trim();
          return ok({ projectName: serverName });
        },
      },
    );
    const name = await screen.findByRole<HTMLInputElement>('textbox', { name: 'Product name' });
    await waitFor(() => expect(within(screen.getByRole('banner')).getByText('Linen shirt')).toBeTruthy());
    fireEvent.change(name, { target: { value: 'Linen shirt, sand' } });
    // Typing sends nothing; leaving the field does, once.
    expect(namedAfter).toEqual([]);
    fireEvent.blur(name);
    await waitFor(() => expect(within(screen.getByRole('banner')).getByText('Linen shirt, sand')).toBeTruthy());
    expect(namedAfter).toEqual(['Linen shirt, sand']);
  });
});
