/**
 * The extension's settings (options page), kept in chrome.storage.sync so they follow the user's browser profile:
 * where the app runs, its API prefix, and whether the floating button shows on shop pages.
 */

export interface Settings {
  /** The app's origin, e.g. https://reelsmith.example.com; the only site the extension calls. */
  appOrigin: string;
  /** The app's API_PREFIX: its API lives at `<appOrigin>/<apiPrefix>/api`. */
  apiPrefix: string;
  floatingButton: boolean;
}

/** Set at build time from EXTENSION_APP_ORIGIN (vite `define`), so a store build points at its own app. */
declare const __DEFAULT_APP_ORIGIN__: string;

export const DEFAULT_SETTINGS: Settings = {
  appOrigin: typeof __DEFAULT_APP_ORIGIN__ === 'string' ? __DEFAULT_APP_ORIGIN__ : 'http://127.0.0.1:3000',
  apiPrefix: 'reelsmith',
  floatingButton: true,
};

/** The origin of an address the user typed (`https://app.example/` → `https://app.example`), or null if it is none. */
export function originOf(input: string): string | null {
  try {
    const url = new URL(input.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

export const isApiPrefix = (value: string) => /^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(value);

/** The host permission pattern for an origin: Chrome's match patterns take the port, not the scheme's default. */
export const originPattern = (origin: string) => `${origin}/*`;

/**
 * The server a downloaded extension came from: the server writes `deployment.json` into the zip it serves (decision
 * "Extension download"), so the extension talks to it without the user typing its address. A build without the file
 * (the store's, a developer's) keeps the build's defaults; so does a content script, which cannot read the file and
 * needs only `floatingButton`.
 */
async function deploymentDefaults(): Promise<Partial<Settings>> {
  try {
    const response = await fetch(chrome.runtime.getURL('deployment.json'));
    if (!response.ok) return {};
    const { appOrigin, apiPrefix } = (await response.json()) as Partial<Settings>;
    const origin = typeof appOrigin === 'string' ? originOf(appOrigin) : null;
    return {
      ...(origin && { appOrigin: origin }),
      ...(typeof apiPrefix === 'string' && isApiPrefix(apiPrefix) && { apiPrefix }),
    };
  } catch {
    return {};
  }
}

/** What the user saved in the options, over the server the extension came from, over the build's defaults. */
export async function readSettings(): Promise<Settings> {
  const [deployment, stored] = await Promise.all([
    deploymentDefaults(),
    // Only what was saved: asking with defaults would answer the build's defaults over the deployment's.
    chrome.storage.sync.get<Partial<Settings>>(Object.keys(DEFAULT_SETTINGS) as (keyof Settings)[]),
  ]);
  return { ...DEFAULT_SETTINGS, ...deployment, ...stored };
}

export const saveSettings = (settings: Settings) => chrome.storage.sync.set(settings);

const INSTALL_ID_KEY = 'installId';

/**
 * The `deviceFingerprint` the app stores with a project: a random id made once per installation, not derived
 * from anything about the device or the browser.
 */
export async function installId(): Promise<string> {
  const stored = (await chrome.storage.local.get(INSTALL_ID_KEY))[INSTALL_ID_KEY];
  if (typeof stored === 'string') return stored;
  const id = crypto.randomUUID();
  await chrome.storage.local.set({ [INSTALL_ID_KEY]: id });
  return id;
}
