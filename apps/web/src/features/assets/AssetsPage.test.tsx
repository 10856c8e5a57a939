import type { LibraryAsset, ProjectSummary } from '@reelsmith/contract';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../shared/i18n/i18n';
import { FakeXhr } from '../../test/fakeXhr';
import { libraryAsset as asset } from '../../test/fixtures';
import { ok, renderApp, stubApi, userWith } from '../../test/renderApp';

vi.setConfig({ testTimeout: 60_000 });

afterEach(async () => {
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

const PAGE = '/dashboard/assets';

const project = (projectId: string, change: Partial<ProjectSummary> = {}): ProjectSummary => ({
  projectId,
  projectName: `Project ${projectId}`,
  productLink: 'https://shop.example.com/p/1',
  coverUrl: null,
  taskStatus: 'SUCCESS',
  exportCount: 0,
  createTime: '2024-05-01T10:00:00Z',
  updateTime: '2024-05-02T10:00:00Z',
  ...change,
});

type Body = Record<string, unknown>;
const fail = (message: string) => ({ body: { code: 40000, message, data: null } });
const STATISTICS = ok({ total: 3, images: 2, videos: 1, projects: 1, bytes: 3 * 1024 * 1024, quotaBytes: 5 * 1024 ** 3 });

/** The library's calls answered from fixed lists, keeping every body sent, per path. */
function library({ assets = [] as LibraryAsset[], projects = [] as ProjectSummary[], answers = {} as Parameters<typeof stubApi>[0] } = {}) {
  const bodies: Record<string, Body[]> = {};
  const keep = (path: string, body: unknown) => {
    bodies[path] = [...(bodies[path] ?? []), body as Body];
  };
  const page = <T,>(items: T[], body: Body) => {
    const start = ((body.page as number) - 1) * (body.pageSize as number);
    return ok({ list: items.slice(start, start + (body.pageSize as number)), total: items.length });
  };
  const calls = stubApi({
    '/points/account': ok({ totalPoints: 0, availablePoints: 0, usedPoints: 0, expiredPoints: 0, expiring: [] }),
    '/assert/statistics': STATISTICS,
    '/assert/folders/files': (body) => {
      keep('/assert/folders/files', body);
      return page(assets, body as Body);
    },
    '/project/getProjects': (body) => {
      keep('/project/getProjects', body);
      return page(projects, body as Body);
    },
    ...Object.fromEntries(
      Object.entries(answers).map(([path, answer]) => [
        path,
        (body: unknown, query: URLSearchParams) => {
          keep(path, body);
          return typeof answer === 'function' ? answer(body, query) : answer;
        },
      ]),
    ),
  });
  return { calls, bodies };
}

/** A card by its name; a selector, because role queries over a grid of cards are slow in jsdom. */
const cardNow = (name: string) => document.querySelector<HTMLElement>(`article[aria-label="${name.replace(/["\\]/g, '\\$&')}"]`);
const card = (name: string) =>
  waitFor(() => {
    const found = cardNow(name);
    if (!found) throw new Error(`no card "${name}"`);
    return found;
  });

/**
 * The open dialog with this title. Under test, antd's components all take the id "test-id", so a dialog's
 * aria-labelledby points at whichever came first; the title is read from the dialog itself instead.
 */
const dialog = (title: string) =>
  waitFor(() => {
    const found = [...document.querySelectorAll<HTMLElement>('[role=dialog]')].find(
      (element) => element.querySelector('.ant-modal-title, .ant-modal-confirm-title')?.textContent === title,
    );
    if (!found) throw new Error(`no dialog "${title}"`);
    return found;
  });

/** Picks an option of one of the page's antd selects. */
async function choose(label: string, option: string) {
  fireEvent.mouseDown(screen.getByRole('combobox', { name: label }));
  const options = await screen.findAllByTitle(option);
  const choice = options.find((element) => element.classList.contains('ant-select-item-option')) ?? options[0];
  if (!choice) throw new Error(`no option ${option}`);
  fireEvent.click(choice);
}

describe('assets page', () => {
  it('lists the assets newest first, with the library statistics', async () => {
    const { bodies } = library({ assets: [asset('a1'), asset('v1', { type: 'video', fileName: 'clip.mp4', format: 'mp4' })] });
    renderApp(PAGE, userWith('ACTIVE'));
    expect(await card('a1.png')).toBeTruthy();
    expect(within(await card('clip.mp4')).getByRole('button', { name: 'Watch' })).toBeTruthy();
    expect(bodies['/assert/folders/files']).toEqual([{ page: 1, pageSize: 24, sort: 'newest' }]);
    const summary = await screen.findByLabelText('Library summary');
    expect(summary.textContent).toBe('Images2Videos1Projects1Storage used3.0 MB / 5.0 GB');
  });

  it('names a stand-in’s result as such on its card, and explains the word', async () => {
    library({ assets: [asset('drawn', { source: 'generated', standIn: true }), asset('mine')] });
    renderApp(PAGE, userWith('ACTIVE'));
    const tag = within(await card('drawn.png')).getByText('Stand-in');
    expect(tag.getAttribute('title')).toBe('Made by the free stand-in, not a real AI model: a placeholder with a SANDBOX mark.');
    expect(within(await card('mine.png')).queryByText('Stand-in')).toBeNull();
  });

  it('asks for the filters and sort chosen, and keeps them in the address bar', async () => {
    const { bodies } = library({ assets: [asset('a1')] });
    const { router } = renderApp(PAGE, userWith('ACTIVE'));
    await card('a1.png');
    await choose('Type', 'Video');
    await waitFor(() => expect(bodies['/assert/folders/files']?.at(-1)).toEqual({ page: 1, pageSize: 24, type: 'video', sort: 'newest' }));
    await choose('Resource source', 'From URL');
    await choose('Status', 'Failed');
    await choose('Sort', 'Oldest');
    await waitFor(() =>
      expect(bodies['/assert/folders/files']?.at(-1)).toEqual({
        page: 1,
        pageSize: 24,
        type: 'video',
        source: 'url',
        status: 'failed',
        sort: 'oldest',
      }),
    );
    expect(router.state.location.search).toBe('?type=video&source=url&status=failed&sort=oldest');
  });

  it('cancels the list request on its way when the filters change', async () => {
    const signals: AbortSignal[] = [];
    library({ assets: [asset('a1')] });
    const answer = vi.mocked(fetch);
    vi.stubGlobal(
      'fetch',
      vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
        if (!String(input).endsWith('/assert/folders/files') || !init?.signal) return answer(input, init);
        signals.push(init.signal);
        // The first page never arrives by itself: only a cancel ends it.
        if (signals.length === 1)
          return new Promise<Response>((_, reject) =>
            init.signal?.addEventListener('abort', () => reject(new DOMException('', 'AbortError'))),
          );
        return answer(input, init);
      }),
    );
    renderApp(PAGE, userWith('ACTIVE'));
    await waitFor(() => expect(signals).toHaveLength(1));
    await choose('Type', 'Image');
    await card('a1.png');
    expect(signals[0]?.aborted).toBe(true);
    expect(signals[1]?.aborted).toBe(false);
  });

  it('loads the next page on demand', async () => {
    const assets = Array.from({ length: 30 }, (_, i) => asset(`a${i + 1}`));
    const { bodies } = library({ assets });
    renderApp(PAGE, userWith('ACTIVE'));
    await card('a24.png');
    expect(cardNow('a25.png')).toBeNull();
    // Text, not role, queries: a role query over two dozen cards takes seconds in jsdom.
    fireEvent.click(screen.getByText('Load more'));
    expect(await card('a30.png')).toBeTruthy();
    expect(bodies['/assert/folders/files']?.map((body) => body.page)).toEqual([1, 2]);
    expect(screen.queryByText('Load more')).toBeNull();
  });

  it('says when there are no assets, and when none match the filters', async () => {
    library();
    const { router } = renderApp(`${PAGE}?status=failed`, userWith('ACTIVE'));
    expect(await screen.findByText('No assets match these filters.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(await screen.findByText('No assets yet. Upload from your computer or import from a URL.')).toBeTruthy();
    expect(router.state.location.search).toBe('');
  });

  it('offers Retry when the list cannot be loaded', async () => {
    let down = true;
    library({
      answers: {
        '/assert/folders/files': () =>
          down ? { status: 500, body: { code: 500, message: 'Server error.', data: null } } : ok({ list: [asset('a1')], total: 1 }),
      },
    });
    renderApp(PAGE, userWith('ACTIVE'));
    expect(await screen.findByText('Your assets could not be loaded.')).toBeTruthy();
    down = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await card('a1.png')).toBeTruthy();
  });

  it('renames an asset: refuses an empty name, sends the trimmed one and shows it', async () => {
    const { bodies } = library({ assets: [asset('a1')], answers: { '/assert/rename': ok(true) } });
    renderApp(PAGE, userWith('ACTIVE'));
    fireEvent.click(within(await card('a1.png')).getByRole('button', { name: 'Rename' }));
    const form = await dialog('Rename');
    const input = within(form).getByRole('textbox', { name: 'Name' });
    fireEvent.change(input, { target: { value: '   ' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByRole('alert')).toHaveProperty('textContent', 'Please enter a name');
    expect(bodies['/assert/rename']).toBeUndefined();

    fireEvent.change(input, { target: { value: '  summer hero  ' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await card('summer hero')).toBeTruthy();
    expect(bodies['/assert/rename']).toEqual([{ fileId: 'a1', fileName: 'summer hero' }]);
    expect(await screen.findByText('Renamed.')).toBeTruthy();
  });

  it('says "Edit failed" when a rename is refused, and keeps the dialog open', async () => {
    library({ assets: [asset('a1')], answers: { '/assert/rename': fail('Not found.') } });
    renderApp(PAGE, userWith('ACTIVE'));
    fireEvent.click(within(await card('a1.png')).getByRole('button', { name: 'Rename' }));
    const form = await dialog('Rename');
    fireEvent.change(within(form).getByRole('textbox', { name: 'Name' }), { target: { value: 'other' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Edit failed')).toBeTruthy();
    expect(await dialog('Rename')).toBeTruthy();
    expect(cardNow('a1.png')).toBeTruthy();
  });

  it('deletes an asset after confirmation', async () => {
    const { bodies } = library({ assets: [asset('a1'), asset('a2')], answers: { '/assert/delete': ok(true) } });
    renderApp(PAGE, userWith('ACTIVE'));
    fireEvent.click(within(await card('a1.png')).getByRole('button', { name: 'Delete' }));
    const confirm = await dialog('Delete "a1.png"?');
    expect(bodies['/assert/delete']).toBeUndefined();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(cardNow('a1.png')).toBeNull());
    expect(bodies['/assert/delete']).toEqual([{ fileIds: ['a1'] }]);
    expect(cardNow('a2.png')).toBeTruthy();
  });

  it('says "Delete failed" and keeps the asset when the delete is refused', async () => {
    library({ assets: [asset('a1')], answers: { '/assert/delete': fail('Not found.') } });
    renderApp(PAGE, userWith('ACTIVE'));
    fireEvent.click(within(await card('a1.png')).getByRole('button', { name: 'Delete' }));
    fireEvent.click(within(await dialog('Delete "a1.png"?')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Delete failed')).toBeTruthy();
    expect(cardNow('a1.png')).toBeTruthy();
  });

  it('enlarges an image, plays a video, links the download and opens the image editor', async () => {
    library({ assets: [asset('a1'), asset('v1', { type: 'video', fileName: 'clip.mp4', fileUrl: '/files/v1.mp4' })] });
    const { router } = renderApp(PAGE, userWith('ACTIVE'));
    const image = await card('a1.png');
    expect(within(image).getByRole('link', { name: 'Download' }).getAttribute('href')).toBe('/files/a1.png?sig=1&download=1');

    fireEvent.click(within(image).getByRole('button', { name: 'Enlarge' }));
    const preview = await dialog('a1.png');
    expect(within(preview).getByRole('img', { name: 'a1.png' }).getAttribute('src')).toBe('/files/a1.png?sig=1');
    // The enlarged picture is looked at alone: the page behind is all but hidden, not dimmed by antd's 45 %.
    const masks = [...document.querySelectorAll<HTMLElement>('.ant-modal-mask')].map((mask) => mask.style.background);
    expect(masks).toContain('rgba(0, 0, 0, 0.92)');
    fireEvent.click(within(preview).getByRole('button', { name: 'Close' }));

    fireEvent.click(within(await card('clip.mp4')).getByRole('button', { name: 'Play' }));
    const player = await dialog('clip.mp4');
    expect(player.querySelector('video')?.getAttribute('src')).toBe('/files/v1.mp4');
    fireEvent.click(within(player).getByRole('button', { name: 'Close' }));

    fireEvent.click(within(image).getByRole('button', { name: 'Edit' }));
    await waitFor(() => expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/tools/image-edit?fileId=a1'));
  });

  it('shows a failed import with its reason, and no way to view or download it', async () => {
    library({
      assets: [
        asset('f1', {
          status: 'failed',
          source: 'url',
          type: null,
          fileUrl: null,
          downloadUrl: null,
          thumbnailUrl: null,
          errorMsg: 'The link answered HTTP 404.',
        }),
      ],
    });
    renderApp(PAGE, userWith('ACTIVE'));
    const failed = await card('f1.png');
    expect(failed.textContent).toContain('Failed');
    expect(failed.textContent).toContain('The link answered HTTP 404.');
    expect(within(failed).queryByRole('link', { name: 'Download' })).toBeNull();
    expect(within(failed).queryByRole('button', { name: 'Enlarge' })).toBeNull();
    expect(within(failed).getByRole('button', { name: 'Delete' })).toBeTruthy();
  });
});

describe('upload from the computer', () => {
  const PUT_URL = {
    uploadUrl: '/reelsmith/api/file/user/put/abc',
    resKey: 'u1/abc.png',
    method: 'PUT',
    headers: { 'content-type': 'image/png' },
  };
  const png = () => new File([new Uint8Array([137, 80, 78, 71])], 'hero.png', { type: 'image/png' });
  const pick = async (file: File) => {
    const input = document.querySelector<HTMLInputElement>('input[type=file]');
    if (!input) throw new Error('no file input');
    fireEvent.change(input, { target: { files: [file] } });
    await waitFor(() => expect(FakeXhr.last?.body).toBe(file));
    return FakeXhr.last as FakeXhr;
  };

  it('shows the progress, registers the file and lists it', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    FakeXhr.last = null;
    let uploaded = false;
    const { bodies, calls } = library({
      answers: {
        '/file/user/put-url': ok(PUT_URL),
        '/assert/uploadFileWithUrl': () => {
          uploaded = true;
          return ok(asset('n1', { fileName: 'hero.png' }));
        },
        '/assert/folders/files': () => ok({ list: uploaded ? [asset('n1', { fileName: 'hero.png' })] : [], total: 0 }),
      },
    });
    renderApp(PAGE, userWith('ACTIVE'));
    await screen.findByText('No assets yet. Upload from your computer or import from a URL.');
    const xhr = await pick(png());
    // The size reserves the upload's room in the storage quota.
    expect(calls).toContain('/file/user/put-url?format=png&size=4');
    expect(xhr.method).toBe('PUT');
    expect(xhr.url).toBe(PUT_URL.uploadUrl);
    expect(xhr.headers).toMatchObject({ 'content-type': 'image/png', client: 'WEB' });

    act(() => xhr.progress(50, 100));
    const progress = await screen.findByRole('progressbar', { name: 'Uploading hero.png' });
    expect(progress.getAttribute('aria-valuenow')).toBe('50');
    expect(within(await card('hero.png')).getByText('Uploading… 50%')).toBeTruthy();

    act(() => xhr.answer(200, JSON.stringify({ code: 0, message: 'ok', data: true })));
    expect(await screen.findByText('hero.png uploaded')).toBeTruthy();
    expect(bodies['/assert/uploadFileWithUrl']).toEqual([{ resKey: 'u1/abc.png', fileName: 'hero.png' }]);
    await waitFor(() => expect(screen.queryByRole('progressbar')).toBeNull());
    expect(await card('hero.png')).toBeTruthy();
  });

  it("shows the service's message when it refuses the file, and registers nothing", async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    FakeXhr.last = null;
    const { bodies } = library({ answers: { '/file/user/put-url': ok(PUT_URL) } });
    renderApp(PAGE, userWith('ACTIVE'));
    await screen.findByText('No assets yet. Upload from your computer or import from a URL.');
    const xhr = await pick(png());
    act(() => xhr.answer(200, JSON.stringify({ code: 40010, message: 'The file is not a picture or video we can read.', data: null })));
    expect(await screen.findByText('The file is not a picture or video we can read.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('progressbar')).toBeNull());
    expect(bodies['/assert/uploadFileWithUrl']).toBeUndefined();
  });

  it('stops an upload when asked, saying nothing', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    FakeXhr.last = null;
    library({ answers: { '/file/user/put-url': ok(PUT_URL) } });
    renderApp(PAGE, userWith('ACTIVE'));
    await screen.findByText('No assets yet. Upload from your computer or import from a URL.');
    await pick(png());
    fireEvent.click(within(await card('hero.png')).getByRole('button', { name: 'Cancel upload' }));
    await waitFor(() => expect(cardNow('hero.png')).toBeNull());
    expect(document.querySelector('.ant-message-error')).toBeNull();
  });
});

describe('import from a URL', () => {
  it('refuses an address that is not a URL, then shows a draft card until the import ends', async () => {
    let imported = false;
    const url = 'https://cdn.example.com/shoe.jpg';
    const { bodies } = library({
      answers: {
        '/assert/url-task': (body) =>
          body ? ok({ fileId: 'i1' }) : ok({ status: imported ? 4 : 1, fileKey: null, fileUrl: null, errorMsg: null }),
        '/assert/folders/files': () => ok({ list: imported ? [asset('i1', { fileName: 'shoe.jpg', source: 'url' })] : [], total: 0 }),
      },
    });
    renderApp(PAGE, userWith('ACTIVE'));
    await screen.findByText('No assets yet. Upload from your computer or import from a URL.');
    fireEvent.click(screen.getByRole('button', { name: /Import from URL/ }));
    const form = await dialog('Import from a URL');
    const input = within(form).getByRole('textbox', { name: 'Image or video URL' });
    fireEvent.change(input, { target: { value: 'shoe.jpg' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Import' }));
    expect(await within(form).findByRole('alert')).toHaveProperty('textContent', 'Please provide a valid URL');

    fireEvent.change(input, { target: { value: url } });
    fireEvent.click(within(form).getByRole('button', { name: 'Import' }));
    const draft = await card(url);
    expect(draft.textContent).toContain('Draft');
    expect(draft.textContent).toContain('Importing…');
    expect(bodies['/assert/url-task']?.[0]).toEqual({ url });

    imported = true;
    expect(await screen.findByText(`${url} imported`, undefined, { timeout: 10_000 })).toBeTruthy();
    expect(await card('shoe.jpg')).toBeTruthy();
    expect(cardNow(url)).toBeNull();
  });

  it('says why an import failed', async () => {
    library({
      assets: [
        asset('i2', {
          fileName: 'bag.jpg',
          source: 'url',
          status: 'draft',
          type: null,
          fileUrl: null,
          downloadUrl: null,
          thumbnailUrl: null,
        }),
      ],
      answers: { '/assert/url-task': ok({ status: -1, fileKey: null, fileUrl: null, errorMsg: 'The link could not be reached.' }) },
    });
    renderApp(PAGE, userWith('ACTIVE'));
    expect(await screen.findByText('The link could not be reached.')).toBeTruthy();
  });
});

describe('projects tab', () => {
  it('lists the projects, opens one in the editor and deletes another after confirmation', async () => {
    const { bodies } = library({
      projects: [
        project('p1'),
        project('p2', { taskStatus: 'IN_PROGRESS' }),
        project('p3', { exportCount: 2, coverUrl: '/files/p3.thumb.webp' }),
      ],
      answers: { '/project/deleteProject': ok(true) },
    });
    const { router } = renderApp(`${PAGE}?tab=projects&sort=oldest`, userWith('ACTIVE'));
    const first = await card('Project p1');
    // Every card says where the project is: a draft, work running, or exported with how many videos, on its cover.
    expect(first.textContent).toContain('Draft');
    expect((await card('Project p2')).textContent).toContain('Generating');
    const exported = await card('Project p3');
    expect(exported.textContent).toContain('Exported');
    expect(exported.textContent).toContain('Videos: 2');
    expect(exported.querySelector('img')?.getAttribute('src')).toBe('/files/p3.thumb.webp');
    // Open in the editor and rename are told apart at a glance: scissors and a pencil.
    expect(
      within(first)
        .getAllByRole('button', { name: 'Edit' })
        .some((button) => button.querySelector('.anticon-scissor')),
    ).toBe(true);
    expect(within(first).getByRole('button', { name: 'Rename' }).querySelector('.anticon-edit')).toBeTruthy();
    expect(bodies['/project/getProjects']).toEqual([{ page: 1, pageSize: 24, sort: 'oldest' }]);
    expect(screen.queryByRole('combobox', { name: 'Type' })).toBeNull();

    fireEvent.click(within(await card('Project p2')).getByRole('button', { name: 'Delete' }));
    fireEvent.click(within(await dialog('Delete "Project p2"?')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(cardNow('Project p2')).toBeNull());
    expect(bodies['/project/deleteProject']).toEqual([{ projectIds: ['p2'] }]);

    fireEvent.click(within(first).getAllByRole('button', { name: 'Edit' })[0] as HTMLElement);
    await waitFor(() =>
      expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/tools/link-to-video/edit-product?projectId=p1'),
    );
  });

  it('renames a project within the 100-character limit', async () => {
    const { bodies } = library({ projects: [project('p1')], answers: { '/project/updateProjectFileInfo': ok(true) } });
    renderApp(`${PAGE}?tab=projects`, userWith('ACTIVE'));
    fireEvent.click(within(await card('Project p1')).getByRole('button', { name: 'Rename' }));
    const form = await dialog('Rename');
    const input = within(form).getByRole('textbox', { name: 'Name' });
    fireEvent.change(input, { target: { value: 'x'.repeat(101) } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByRole('alert')).toHaveProperty('textContent', 'A name can be at most 100 characters');
    fireEvent.change(input, { target: { value: 'Spring sale' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await card('Spring sale')).toBeTruthy();
    expect(bodies['/project/updateProjectFileInfo']).toEqual([{ projectId: 'p1', fileName: 'Spring sale' }]);
  });

  it('says when there are no projects, with the way to start one', async () => {
    library();
    renderApp(`${PAGE}?tab=projects`, userWith('ACTIVE'));
    expect(await screen.findByText('No projects yet. Paste a product link to make your first video.')).toBeTruthy();
    expect(within(screen.getByRole('main')).getByRole('link', { name: 'Link to video' }).getAttribute('href')).toBe('/tools/link-to-video');
  });
});

describe('in Chinese', () => {
  it('speaks Chinese throughout the page', async () => {
    await i18n.changeLanguage('zh');
    library({ assets: [asset('a1', { source: 'url' }), asset('drawn', { source: 'generated', standIn: true })] });
    renderApp(PAGE, userWith('ACTIVE'));
    const image = await card('a1.png');
    expect(
      within(await card('drawn.png'))
        .getByText('替代品')
        .getAttribute('title'),
    ).toMatch(/^由免费替代品生成，并非真实 AI 模型的结果/);
    expect(within(image).queryByText('替代品')).toBeNull();
    expect(screen.getByRole('heading', { level: 1, name: '素材库' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: '项目' })).toBeTruthy();
    expect(screen.getByRole('button', { name: /从链接导入/ })).toBeTruthy();
    expect(within(image).getByText(/图片 · 来自链接/)).toBeTruthy();
    expect(within(image).getByRole('button', { name: '重命名' })).toBeTruthy();
    expect(screen.getByRole('combobox', { name: '资源来源' })).toBeTruthy();
    fireEvent.click(within(image).getByRole('button', { name: '删除' }));
    expect(await dialog('删除“a1.png”？')).toBeTruthy();
  });
});
