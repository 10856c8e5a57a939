// Business constants of spec "Business constants", shared by web and server.

export const REQUEST_TIMEOUT_MS = 60_000;
export const POLL_INTERVAL_MS = 2_000;
export const POLL_MAX_ATTEMPTS = 10_000;

export const POINTS_PAGE_SIZE = 40;
export const POINTS_PAGE_SIZE_MAX = 100;
export const CREDIT_LIST_THROTTLE_MS = 200;
export const CREDIT_LIST_BOTTOM_THRESHOLD_PX = 10;

export const MAX_ASSETS_PER_PROJECT = 30;
export const PROJECT_NAME_MAX = 100;

export const CLOTHING_MAX_BYTES = 10 * 1024 * 1024;
export const CLOTHING_MIN_SHORT_SIDE = 512;
export const CLOTHING_MAX_LONG_SIDE = 4096;
export const ENHANCE_MAX_LONG_SIDE = 1920;
/** Image extension's ratios run from 1:4 to 4:1 (decision "Bounded work"): a 99:1 canvas is no product shot. */
export const EXPAND_RATIO_MAX = 4;
/** Whether an extension ratio `w:h` lies within 1:EXPAND_RATIO_MAX and EXPAND_RATIO_MAX:1. */
export function expandRatioAllowed(ratio: string): boolean {
  const [w, h] = ratio.split(':').map(Number);
  if (!w || !h) return false;
  return w / h <= EXPAND_RATIO_MAX && h / w <= EXPAND_RATIO_MAX;
}

export const EXPORT_VIDEO_LENGTH_TYPE = '2';
export const EXPORT_RESULT_NUM = 1;
export const UPSCALE_N = 1;

/** The largest page the browser extension may send, in bytes of UTF-8; link analysis reads no larger page. */
export const CAPTURED_PAGE_MAX_BYTES = 10 * 1024 * 1024;

export const LINK_VIDEO_LENGTHS = [15, 30, 45] as const;
export const SIGNUP_CREDIT_DAYS = 30;
export const REFERRAL_FRIEND_CREDITS = 100;
export const REFERRAL_INVITER_CREDITS = 100;
export const REFERRAL_INVITER_MONTHLY_CAP = 500;

// The languages and the client log limits live here rather than beside their schemas (enums.ts, logs.ts): the web
// app reads them before its first render, and this module imports no zod (decision "First-load bundle split").
export const LOCALES = ['en', 'zh', 'pt'] as const;
export const DEFAULT_LOCALE: (typeof LOCALES)[number] = 'en';
/** Whether a value is one of LOCALES: `Locale.safeParse` without zod. */
export const isLocale = (value: unknown): value is (typeof LOCALES)[number] => (LOCALES as readonly unknown[]).includes(value);

export const CLIENT_LOG_BATCH_MAX = 20;
export const CLIENT_LOG_MESSAGE_MAX = 500;
/** The endpoint's body limit: a full batch of the longest messages, with room for the JSON around them. */
export const CLIENT_LOG_BODY_MAX = CLIENT_LOG_BATCH_MAX * (CLIENT_LOG_MESSAGE_MAX + 600);

export const LOCALE_COOKIE_DAYS = 365;
export const DRAFT_STORAGE_PREFIX = 'projectDraftData-';
/** Where the server sends the browser after Google sign-in's callback, with ?status=success|error. */
export const LOGIN_CALLBACK_ROUTE = '/account/login-callback';
/** The web app's "Get credits" page, where Stripe sends a user back who did not pay. */
export const GET_CREDITS_ROUTE = '/account/credits';
/** The page after paying, which waits for the grant: Stripe sends the browser there with `?session_id=`. */
export const PURCHASE_ROUTE = '/account/credits/purchase';
/** Local storage key of the path a guarded route sends the user back to after sign-in or activation. */
export const REDIRECT_STORAGE_KEY = 'redirectPath';

export const THEME_PRIMARY = '#1adb74';
export const THEME_BG_BASE = '#0b0e14';

/** Every API call must carry this header (spec "The calls"). */
export const CLIENT_HEADER = 'client';
export const CLIENT_WEB = 'WEB';

/** `{prefix}-locale`: the cookie and local storage key of the chosen language (spec "The calls", design "Contract details"). */
export const localeKey = (prefix: string) => `${prefix}-locale`;

/** Under the API prefix: the browser extension zipped for this deployment (decision "Extension download"). */
export const EXTENSION_DOWNLOAD_PATH = '/extension/download';
