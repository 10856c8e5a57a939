/**
 * The service worker: takes a captured product page to the app. It captures the tab the popup was opened on
 * (activeTab, granted by that click) or takes the capture of the floating button's page, uploads the HTML
 * (`POST /link-video/page/upload`, with the user's app session), and opens link to video with the returned
 * resKey. A signed-out user is sent to the app's sign-in page; the capture waits in session storage and is
 * sent as soon as that tab reaches the app past sign-in, then the same tab opens link to video.
 */
import { uploadPage } from './api';
import type { CapturedPage } from './capture';
import { t, uiLanguage } from './i18n';
import type { Answer, Request } from './messages';
import { installId, originPattern, readSettings } from './settings';
import { isSignedInPage, linkToVideoUrl, loginUrl } from './urls';

const PENDING_KEY = 'pendingCapture';

interface Pending {
  capture: CapturedPage;
  /** The sign-in tab, which becomes link to video once the user is in. */
  loginTabId: number;
}

const failed = (message: string): Answer => ({ status: 'failed', message });

/** Runs the capture in the tab: the content script defines it (again harmless where it already runs). */
async function captureTab(tabId: number): Promise<CapturedPage> {
  await chrome.scripting.executeScript({ target: { tabId }, files: ['content.js'] });
  const [frame] = await chrome.scripting.executeScript({
    target: { tabId },
    func: () => (globalThis as { reelsmithCapture?: () => unknown }).reelsmithCapture?.(),
  });
  const capture = frame?.result as CapturedPage | undefined;
  if (!capture?.html) throw new Error('the page gave no capture');
  return capture;
}

async function arrivalUrl(appOrigin: string, capture: CapturedPage, resKey: string): Promise<string> {
  return linkToVideoUrl(appOrigin, { inputLink: capture.url, resKey, resUrl: capture.mainImage, deviceFingerprint: await installId() });
}

async function waitForSignIn(capture: CapturedPage, appOrigin: string): Promise<Answer> {
  const tab = await chrome.tabs.create({ url: loginUrl(appOrigin) });
  if (tab.id === undefined) return { status: 'signIn', resumes: false };
  try {
    await chrome.storage.session.set({ [PENDING_KEY]: { capture, loginTabId: tab.id } satisfies Pending });
    return { status: 'signIn', resumes: true };
  } catch {
    // Session storage holds 10 MB: a page near the cap does not fit, so the user clicks again once signed in.
    return { status: 'signIn', resumes: false };
  }
}

async function deliver(capture: CapturedPage): Promise<Answer> {
  const settings = await readSettings();
  // A new try: the warning of an earlier capture that failed after sign-in is stale.
  await chrome.action.setBadgeText({ text: '' });
  if (!(await chrome.permissions.contains({ origins: [originPattern(settings.appOrigin)] }))) {
    return failed(t('noPermission', settings.appOrigin));
  }
  if (!/^https?:/.test(capture.url)) return failed(t('notWebPage'));
  let outcome: Awaited<ReturnType<typeof uploadPage>>;
  try {
    outcome = await uploadPage(settings, capture.html, uiLanguage());
  } catch {
    return failed(t('appUnreachable', settings.appOrigin));
  }
  if (outcome.kind === 'signedOut') return waitForSignIn(capture, settings.appOrigin);
  if (outcome.kind === 'failed') return failed(outcome.message);
  await chrome.tabs.create({ url: await arrivalUrl(settings.appOrigin, capture, outcome.resKey) });
  return { status: 'opened', imageCount: capture.images.length };
}

async function handle(request: Request, sender: chrome.runtime.MessageSender): Promise<Answer> {
  if (request.type === 'make-video-from-page') {
    if (!sender.tab) return failed(t('notWebPage'));
    return deliver(request.capture);
  }
  let capture: CapturedPage;
  try {
    capture = await captureTab(request.tabId);
  } catch (error) {
    return failed(t('cannotReadPage', error instanceof Error ? error.message : String(error)));
  }
  return deliver(capture);
}

chrome.runtime.onMessage.addListener((request: Request, sender, reply) => {
  // Only our own popup and content scripts can message us (no externally_connectable).
  if (sender.id !== chrome.runtime.id) return false;
  handle(request, sender).then(reply, (error: unknown) => reply(failed(String(error))));
  return true;
});

/** Tabs being finished now, so the several updates of one navigation send the capture once. */
const resuming = new Set<number>();

async function resumeAfterSignIn(tabId: number, address: string | undefined) {
  if (resuming.has(tabId)) return;
  const pending = (await chrome.storage.session.get(PENDING_KEY))[PENDING_KEY] as Pending | undefined;
  if (pending?.loginTabId !== tabId) return;
  const settings = await readSettings();
  if (!isSignedInPage(settings.appOrigin, address)) return;
  resuming.add(tabId);
  try {
    const outcome = await uploadPage(settings, pending.capture.html, uiLanguage());
    if (outcome.kind === 'signedOut') return;
    await chrome.storage.session.remove(PENDING_KEY);
    if (outcome.kind === 'stored') {
      await chrome.tabs.update(tabId, { url: await arrivalUrl(settings.appOrigin, pending.capture, outcome.resKey) });
    } else {
      await chrome.action.setBadgeText({ text: '!' });
      await chrome.action.setTitle({ title: outcome.message });
    }
  } finally {
    resuming.delete(tabId);
  }
}

chrome.tabs.onUpdated.addListener((tabId, change, tab) => {
  void resumeAfterSignIn(tabId, change.url ?? tab.url);
});

chrome.tabs.onRemoved.addListener(async (tabId) => {
  const pending = (await chrome.storage.session.get(PENDING_KEY))[PENDING_KEY] as Pending | undefined;
  if (pending?.loginTabId === tabId) await chrome.storage.session.remove(PENDING_KEY);
});
