import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { isRedirect, type LayoutKind, type PageRoute, ROUTES } from './routes';

const pages = ROUTES.filter((route): route is PageRoute => !isRedirect(route));
const pageAt = (path: string) => pages.find((route) => route.path === path);
type Flag = 'login' | 'skipActivation' | 'largerScreen';
/**
 * The page rows of spec "Screens and routes": path, layout, and the flags that hold (skipActivation also covers sign-in and
 * policies); plus the invite-friends page, whose path the spec leaves unshown, the Developers, Batch and Avatar
 * pages (decisions "API keys", "Batch" and "The Avatar tool"), and the Get credits page with its return from paying.
 */
const SPEC_PAGES: [string, LayoutKind, ...Flag[]][] = [
  ['/account/login', 'none', 'skipActivation'],
  ['/account/login-callback', 'none', 'skipActivation'],
  ['/account/activate', 'none', 'login', 'skipActivation'],
  ['/account/invite', 'header+sidebar', 'login'],
  ['/account/developers', 'header+sidebar', 'login'],
  ['/account/developers/api', 'header+sidebar', 'login'],
  ['/account/credits', 'header+sidebar', 'login'],
  ['/account/credits/purchase', 'header+sidebar', 'login'],
  ['/tools/link-to-video', 'header+sidebar'],
  ['/tools/link-to-video/batch', 'header+sidebar', 'login'],
  ['/tools/link-to-video/edit-product', 'header-no-sidebar', 'login'],
  ['/tools/link-to-video/preview', 'header-no-sidebar', 'login'],
  ['/tools/link-to-video/video-export', 'header-no-sidebar', 'login'],
  ['/tools/video/text-to-video', 'mini-sidebar', 'login', 'largerScreen'],
  ['/tools/video/image-to-video', 'mini-sidebar', 'login', 'largerScreen'],
  ['/tools/image/text-to-image', 'mini-sidebar', 'login', 'largerScreen'],
  ['/tools/image/ai-model', 'mini-sidebar', 'login', 'largerScreen'],
  ['/tools/image-edit', 'header', 'login', 'largerScreen'],
  ['/tools/avatar', 'mini-sidebar', 'login', 'largerScreen'],
  ['/dashboard/assets', 'header+sidebar', 'login'],
  ['/public/terms-of-use', 'none', 'skipActivation'],
  ['/public/privacy-policy', 'none', 'skipActivation'],
  ['/public/chrome/privacy-policy', 'none', 'skipActivation'],
];

const asSpecRow = (route: PageRoute): [string, LayoutKind, ...Flag[]] => [
  route.path,
  route.layout,
  ...(route.loginRequired ? ['login' as const] : []),
  ...(route.skipActivationCheck ? ['skipActivation' as const] : []),
  ...(route.largerScreen ? ['largerScreen' as const] : []),
];

/** Where an address ends up after following the table's redirects, as the router would. */
function land(path: string): string {
  for (let hops = 0; hops < 5; hops++) {
    const [match] = matchRoutes(
      ROUTES.map((route) => ({ path: route.path })),
      path,
    ) ?? [undefined];
    const route = ROUTES.find((entry) => entry.path === match?.route.path);
    if (!route) throw new Error(`No route for ${path}`);
    if (!isRedirect(route)) return route.path;
    path = route.redirect;
  }
  throw new Error(`Redirect loop from ${path}`);
}

describe('route table (spec "Screens and routes")', () => {
  it('has exactly the pages of the spec, with their layout, login, activation and screen rules', () => {
    expect(pages.map(asSpecRow)).toEqual(SPEC_PAGES);
  });

  it('lists each path once', () => {
    const paths = ROUTES.map((route) => route.path);
    expect(new Set(paths).size).toBe(paths.length);
  });

  it.each([
    ['/', '/tools/link-to-video'],
    ['/account', '/account/login'],
    ['/account/privacy-policy', '/public/privacy-policy'],
    ['/tools', '/tools/link-to-video'],
    ['/tools/video', '/tools/video/text-to-video'],
    ['/tools/image', '/tools/image/text-to-image'],
    ['/dashboard', '/dashboard/assets'],
    ['/public', '/public/privacy-policy'],
    ['/no/such/page', '/tools/link-to-video'],
    ['/tools/unknown', '/tools/link-to-video'],
  ])('%s lands on %s', (from, to) => {
    expect(land(from)).toBe(to);
  });

  it('sends unknown paths to /', () => {
    expect(ROUTES.find((route) => route.path === '*')).toEqual({ path: '*', redirect: '/' });
  });

  it('labels tool pages with their module, and only tool pages', () => {
    expect(pageAt('/tools/link-to-video')?.toolModule).toBeUndefined();
    expect(pageAt('/tools/link-to-video/preview')?.toolModule).toBe('linkToVideo');
    expect(pageAt('/tools/video/image-to-video')?.toolModule).toBe('video');
    expect(pageAt('/tools/image/ai-model')?.toolModule).toBe('image');
    expect(pageAt('/tools/image-edit')?.toolModule).toBe('imageEdit');
    expect(pageAt('/tools/avatar')?.toolModule).toBe('avatar');
    expect(pageAt('/dashboard/assets')?.toolModule).toBeUndefined();
  });
});
