import { type ComponentType, type LazyExoticComponent, lazy } from 'react';
import type { PolicyKey } from '../features/policy/PolicyPage';
import type { ToolModule } from '../features/shell/toolModule';
import { lazyNamed } from '../shared/lazyNamed';
import { PATHS } from '../shared/paths';
import type { GuardedRoute } from './guard';

/** The chrome around a page (spec "Screens and routes" Layout column). */
export type LayoutKind = 'header' | 'header+sidebar' | 'header-no-sidebar' | 'mini-sidebar' | 'none';

export interface PageRoute extends GuardedRoute {
  path: string;
  page: LazyExoticComponent<ComponentType>;
  /** i18n key (`namespace:key`) of the page's name, for the document title and placeholder pages. */
  title: string;
  layout: LayoutKind;
  /** Adds the wide-screen class to the body while the page shows. */
  largerScreen: boolean;
  /** On tool pages the header shows a back button and the project name labelled by this module. */
  toolModule?: ToolModule;
}

export interface RedirectRoute {
  path: string;
  redirect: string;
}

export type RouteEntry = PageRoute | RedirectRoute;

export const isRedirect = (route: RouteEntry): route is RedirectRoute => 'redirect' in route;

/** Pages are loaded on first visit, so the first screen downloads only what it shows (bench/bundle.mjs reads these rows). */
const named = <M,>(load: () => Promise<M>, name: keyof M): LazyExoticComponent<ComponentType> =>
  lazyNamed(load, name) as LazyExoticComponent<ComponentType>;

const LoginPage = named(() => import('../features/auth/LoginPage'), 'LoginPage');
const LoginCallbackPage = named(() => import('../features/auth/LoginCallbackPage'), 'LoginCallbackPage');
const ActivatePage = named(() => import('../features/auth/ActivatePage'), 'ActivatePage');
const InvitePage = named(() => import('../features/invite/InvitePage'), 'InvitePage');
const DevelopersPage = named(() => import('../features/developers/DevelopersPage'), 'DevelopersPage');
const ApiReferencePage = named(() => import('../features/developers/reference/ApiReferencePage'), 'ApiReferencePage');
const GetCreditsPage = named(() => import('../features/billing/GetCreditsPage'), 'GetCreditsPage');
const PurchasePage = named(() => import('../features/billing/PurchasePage'), 'PurchasePage');
const AssetsPage = named(() => import('../features/assets/AssetsPage'), 'AssetsPage');
const LinkToVideoLanding = named(() => import('../features/link-to-video/LinkToVideoLanding'), 'LinkToVideoLanding');
const BatchPage = named(() => import('../features/link-to-video/batch/BatchPage'), 'BatchPage');
const EditProductPage = named(() => import('../features/link-to-video/edit-product/EditProductPage'), 'EditProductPage');
const PreviewPage = named(() => import('../features/link-to-video/preview/PreviewPage'), 'PreviewPage');
const VideoExportPage = named(() => import('../features/link-to-video/export/VideoExportPage'), 'VideoExportPage');
const TextToVideoPage = named(() => import('../features/video/VideoToolPage'), 'TextToVideoPage');
const ImageToVideoPage = named(() => import('../features/video/VideoToolPage'), 'ImageToVideoPage');
const TextToImagePage = named(() => import('../features/image/TextToImagePage'), 'TextToImagePage');
const AiModelPage = named(() => import('../features/image/AiModelPage'), 'AiModelPage');
const ImageEditPage = named(() => import('../features/image-edit/ImageEditPage'), 'ImageEditPage');
const AvatarPage = named(() => import('../features/avatar/AvatarPage'), 'AvatarPage');
const policyPage = (policy: PolicyKey) =>
  lazy(async () => {
    const { PolicyPage } = await import('../features/policy/PolicyPage');
    return { default: () => <PolicyPage policy={policy} /> };
  });

type PageOptions = Pick<PageRoute, 'layout'> &
  Partial<Pick<PageRoute, 'loginRequired' | 'skipActivationCheck' | 'largerScreen' | 'toolModule'>>;
const page = (path: string, component: PageRoute['page'], title: string, options: PageOptions): PageRoute => ({
  path,
  page: component,
  title,
  loginRequired: false,
  skipActivationCheck: false,
  largerScreen: false,
  ...options,
});

/** Pages anyone may read whatever their account state: signing in, and the policies the login page links to. */
const open = { skipActivationCheck: true, layout: 'none' } as const;
const videoTool = { loginRequired: true, layout: 'mini-sidebar', largerScreen: true, toolModule: 'video' } as const;
const imageTool = { ...videoTool, toolModule: 'image' } as const;
const linkToVideoStep = { loginRequired: true, layout: 'header-no-sidebar', toolModule: 'linkToVideo' } as const;

/** The route table of spec "Screens and routes", in its order, with the invite-friends page (spec "Screens and routes" Screen 6) beside the account pages. */
export const ROUTES: readonly RouteEntry[] = [
  { path: PATHS.home, redirect: PATHS.linkToVideo },
  { path: '/account', redirect: PATHS.login },
  page(PATHS.login, LoginPage, 'app:routes.login', open),
  page(PATHS.loginCallback, LoginCallbackPage, 'app:routes.loginCallback', open),
  page(PATHS.activate, ActivatePage, 'app:routes.activate', { ...open, loginRequired: true }),
  page(PATHS.invite, InvitePage, 'app:routes.invite', { loginRequired: true, layout: 'header+sidebar' }),
  page(PATHS.developers, DevelopersPage, 'app:routes.developers', { loginRequired: true, layout: 'header+sidebar' }),
  page(PATHS.apiReference, ApiReferencePage, 'app:routes.apiReference', { loginRequired: true, layout: 'header+sidebar' }),
  page(PATHS.getCredits, GetCreditsPage, 'app:routes.getCredits', { loginRequired: true, layout: 'header+sidebar' }),
  page(PATHS.purchase, PurchasePage, 'app:routes.purchase', { loginRequired: true, layout: 'header+sidebar' }),
  { path: '/account/privacy-policy', redirect: PATHS.privacyPolicy },
  { path: '/tools', redirect: PATHS.linkToVideo },
  page(PATHS.linkToVideo, LinkToVideoLanding, 'app:routes.linkToVideo', { layout: 'header+sidebar' }),
  page(PATHS.linkToVideoBatch, BatchPage, 'app:routes.linkToVideoBatch', { loginRequired: true, layout: 'header+sidebar' }),
  page(PATHS.editProduct, EditProductPage, 'app:routes.editProduct', linkToVideoStep),
  page(PATHS.preview, PreviewPage, 'app:routes.preview', linkToVideoStep),
  page(PATHS.videoExport, VideoExportPage, 'app:routes.videoExport', linkToVideoStep),
  { path: '/tools/video', redirect: PATHS.textToVideo },
  page(PATHS.textToVideo, TextToVideoPage, 'app:routes.textToVideo', videoTool),
  page(PATHS.imageToVideo, ImageToVideoPage, 'app:routes.imageToVideo', videoTool),
  { path: '/tools/image', redirect: PATHS.textToImage },
  page(PATHS.textToImage, TextToImagePage, 'app:routes.textToImage', imageTool),
  page(PATHS.aiModel, AiModelPage, 'app:routes.aiModel', imageTool),
  page(PATHS.imageEdit, ImageEditPage, 'app:routes.imageEdit', {
    loginRequired: true,
    layout: 'header',
    largerScreen: true,
    toolModule: 'imageEdit',
  }),
  page(PATHS.avatar, AvatarPage, 'app:routes.avatar', { ...videoTool, toolModule: 'avatar' }),
  { path: '/dashboard', redirect: PATHS.assets },
  page(PATHS.assets, AssetsPage, 'app:routes.assets', { loginRequired: true, layout: 'header+sidebar' }),
  { path: '/public', redirect: PATHS.privacyPolicy },
  page(PATHS.termsOfUse, policyPage('terms'), 'policy:terms.title', open),
  page(PATHS.privacyPolicy, policyPage('privacy'), 'policy:privacy.title', open),
  page(PATHS.chromePrivacyPolicy, policyPage('chromePrivacy'), 'policy:chromePrivacy.title', open),
  { path: '*', redirect: PATHS.home },
];
