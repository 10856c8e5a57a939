import { REDIRECT_STORAGE_KEY } from '@reelsmith/contract';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeProject } from '../features/link-to-video/project/open';
import { ok, renderApp, stubApi, userWith } from '../test/renderApp';

// Mounting antd and lazy pages in jsdom takes seconds on a busy machine.
vi.setConfig({ testTimeout: 60_000 });

afterEach(() => {
  cleanup();
  // The header tests open a project: it must not stay open for the next file's tests, which share these modules
  // (isolate: false) and would find "their" project p1 already open with this file's draft.
  closeProject();
  localStorage.clear();
  vi.unstubAllGlobals();
});

describe('the app in a memory router', () => {
  it('sends a signed-out visitor of a login-required page to login and remembers the full path', async () => {
    stubApi({ '/auth/config': ok({ google: false, devLogin: true }) });
    const { router } = renderApp('/dashboard/assets?sort=oldest', null);
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/login'));
    expect(localStorage.getItem(REDIRECT_STORAGE_KEY)).toBe('/dashboard/assets?sort=oldest');
    expect(await screen.findByRole('textbox', { name: 'Email' })).toHaveProperty('name', 'email');
  });

  it('follows the redirects of the table', async () => {
    stubApi({});
    const { router } = renderApp('/no/such/page', null);
    await waitFor(() => expect(router.state.location.pathname).toBe('/tools/link-to-video'));
  });

  it('adds the wide-screen class on larger-screen routes and removes it on leaving', async () => {
    stubApi({});
    const { router } = renderApp('/tools/image-edit', userWith('ACTIVE'));
    await screen.findByRole('heading', { name: 'Image edit' });
    expect(document.body.classList.contains('wide-screen')).toBe(true);
    await act(() => router.navigate('/tools/link-to-video'));
    await screen.findByRole('heading', { name: 'Turn any product link into video ads' });
    expect(document.body.classList.contains('wide-screen')).toBe(false);
  });

  it('shows the shell: a header, the sidebar sections and a sign-in button when signed out', async () => {
    stubApi({});
    renderApp('/tools/link-to-video', null);
    await screen.findByRole('heading', { name: 'Turn any product link into video ads' });
    expect(document.querySelector('header')).not.toBeNull();
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    for (const label of ['Home', 'AI creation', 'Link to video', 'Video', 'Image', 'Image edit', 'Space', 'Assets']) {
      expect(nav.textContent).toContain(label);
    }
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();
  });
});

describe('project name in the header', () => {
  const project = { projectId: 'p1', projectName: 'Summer sneakers', productLink: null, coverUrl: null, taskStatus: null, exportCount: 0 };

  it('renames the project of the address bar on blur, once the name really changed', async () => {
    const calls = stubApi({ '/project/getProjectById': ok(project), '/project/updateProjectFileInfo': ok(true) });
    renderApp('/tools/link-to-video/preview?projectId=p1', userWith('ACTIVE'));
    const name = await screen.findByRole('button', { name: 'Summer sneakers' });

    fireEvent.click(name);
    fireEvent.blur(screen.getByRole('textbox', { name: 'Project name' }));
    expect(calls.filter((call) => call.startsWith('/project/updateProjectFileInfo'))).toEqual([]);

    fireEvent.click(await screen.findByRole('button', { name: 'Summer sneakers' }));
    const editor = screen.getByRole('textbox', { name: 'Project name' });
    expect(editor).toHaveProperty('maxLength', 100);
    fireEvent.change(editor, { target: { value: '  Winter boots  ' } });
    fireEvent.blur(editor);
    expect(await screen.findByText('Renamed.')).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Winter boots' })).toBeTruthy();
    expect(calls).toContain('/project/updateProjectFileInfo');
  });

  it('puts the name back on Escape, without renaming', async () => {
    const calls = stubApi({ '/project/getProjectById': ok(project), '/project/updateProjectFileInfo': ok(true) });
    renderApp('/tools/link-to-video/preview?projectId=p1', userWith('ACTIVE'));
    fireEvent.click(await screen.findByRole('button', { name: 'Summer sneakers' }));
    const editor = screen.getByRole('textbox', { name: 'Project name' });
    fireEvent.change(editor, { target: { value: 'Typo' } });
    fireEvent.keyDown(editor, { key: 'Escape' });
    expect(await screen.findByRole('button', { name: 'Summer sneakers' })).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Project name' })).toBeNull();
    expect(calls.filter((call) => call.startsWith('/project/updateProjectFileInfo'))).toEqual([]);
  });

  it('keeps the name given to a tool page without a project through a reload, one per tool', async () => {
    stubApi({});
    renderApp('/tools/image/ai-model', userWith('ACTIVE'));
    fireEvent.click(await screen.findByRole('button', { name: 'Image' }));
    const editor = screen.getByRole('textbox', { name: 'Project name' });
    fireEvent.change(editor, { target: { value: 'Autumn lookbook' } });
    fireEvent.keyDown(editor, { key: 'Enter' });
    fireEvent.blur(editor);
    expect(await screen.findByRole('button', { name: 'Autumn lookbook' })).toBeTruthy();
    cleanup();

    renderApp('/tools/image/ai-model', userWith('ACTIVE'));
    expect(await screen.findByRole('button', { name: 'Autumn lookbook' })).toBeTruthy();
    cleanup();
    renderApp('/tools/video/text-to-video', userWith('ACTIVE'));
    expect(await screen.findByRole('button', { name: 'Video' })).toBeTruthy();
  });

  it('labels a tool page without a project by its module', async () => {
    stubApi({});
    renderApp('/tools/image/ai-model', userWith('ACTIVE'));
    expect(await screen.findByRole('button', { name: 'Image' })).toBeTruthy();
  });
});

describe('activation', () => {
  it('explains an empty and a wrong code, then lands on the remembered page and forgets it', async () => {
    let activeNow = false;
    const calls = stubApi({
      '/users/activate': () => ok(activeNow),
      '/auth/session': () => ok(userWith(activeNow ? 'ACTIVE' : 'INACTIVE')),
    });
    localStorage.setItem(REDIRECT_STORAGE_KEY, '/dashboard/assets');
    const { router } = renderApp('/account/activate', userWith('INACTIVE'));
    const button = await screen.findByRole('button', { name: /get start/i });

    fireEvent.click(button);
    expect(await screen.findByText('Please enter invitation code')).toBeTruthy();
    expect(calls).toEqual([]);

    fireEvent.change(screen.getByRole('textbox', { name: 'Invitation code' }), { target: { value: ' WRONG ' } });
    fireEvent.click(button);
    expect(await screen.findByText('Invalid invitation code')).toBeTruthy();
    expect(calls).toEqual(['/users/activate?inviteCode=WRONG']);

    activeNow = true;
    fireEvent.change(screen.getByRole('textbox', { name: 'Invitation code' }), { target: { value: 'GOOD' } });
    fireEvent.click(button);
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/assets'));
    expect(localStorage.getItem(REDIRECT_STORAGE_KEY)).toBeNull();
  });

  it('sends an already active user home', async () => {
    stubApi({});
    const { router } = renderApp('/account/activate', userWith('ACTIVE'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/tools/link-to-video'));
  });
});

describe('link-to-video landing', () => {
  it('refuses a link that is not a URL', async () => {
    stubApi({});
    renderApp('/tools/link-to-video', null);
    fireEvent.change(await screen.findByRole('textbox', { name: 'Product link' }), { target: { value: 'my shop' } });
    fireEvent.click(screen.getByRole('button', { name: 'Generate video' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Please provide a valid product url');
  });

  it('sends a signed-out visitor with a valid link to login, to come back with the link', async () => {
    stubApi({ '/auth/config': ok({ google: true, devLogin: false }) });
    const { router } = renderApp('/tools/link-to-video', null);
    fireEvent.click(await screen.findByRole('button', { name: 'Handbag' }));
    fireEvent.click(screen.getByRole('button', { name: 'Generate video' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/login'));
    expect(localStorage.getItem(REDIRECT_STORAGE_KEY)).toBe(
      `/tools/link-to-video?inputLink=${encodeURIComponent('https://theme-dawn-demo.myshopify.com/products/bo-ivy-black')}`,
    );
  });
});
