import { GET_CREDITS_ROUTE, LOGIN_CALLBACK_ROUTE, PURCHASE_ROUTE } from '@reelsmith/contract';

/**
 * The app's page addresses, named once. The route table (app/routes.tsx) gives each its behaviour;
 * features link to them by name.
 */
export const PATHS = {
  home: '/',
  login: '/account/login',
  loginCallback: LOGIN_CALLBACK_ROUTE,
  activate: '/account/activate',
  /** Not in spec "Screens and routes"'s table, whose text keeps this page's path unshown; kept with the other account pages. */
  invite: '/account/invite',
  /** API keys and webhooks (decisions "API keys" and "Webhooks"), from the user menu like the invite page. */
  developers: '/account/developers',
  /** The public API's reference, readable (decision "API reference page"), linked from the Developers page. */
  apiReference: '/account/developers/api',
  /** Buying credits (decision "Buying credits"), from the credit details and a shortfall; the payment service returns here on cancel. */
  getCredits: GET_CREDITS_ROUTE,
  /** Where the payment service sends the browser back after paying (`?session_id=`), to follow the credits in. */
  purchase: PURCHASE_ROUTE,
  linkToVideo: '/tools/link-to-video',
  /** Many product links at once (decision "Batch"), reached from the link-to-video landing. */
  linkToVideoBatch: '/tools/link-to-video/batch',
  editProduct: '/tools/link-to-video/edit-product',
  preview: '/tools/link-to-video/preview',
  videoExport: '/tools/link-to-video/video-export',
  textToVideo: '/tools/video/text-to-video',
  imageToVideo: '/tools/video/image-to-video',
  textToImage: '/tools/image/text-to-image',
  aiModel: '/tools/image/ai-model',
  imageEdit: '/tools/image-edit',
  /** The Avatar tool (decision "The Avatar tool"): the sidebar's Avatar entry. */
  avatar: '/tools/avatar',
  assets: '/dashboard/assets',
  termsOfUse: '/public/terms-of-use',
  privacyPolicy: '/public/privacy-policy',
  chromePrivacyPolicy: '/public/chrome/privacy-policy',
} as const;
