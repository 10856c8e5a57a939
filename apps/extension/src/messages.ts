/** What the popup and the content script ask the service worker, and what it answers. */
import type { CapturedPage } from './capture';

export type Request =
  /** From the popup: capture this tab (the popup's user gesture granted activeTab on it) and make a video. */
  | { type: 'make-video'; tabId: number }
  /** From the floating button: the content script already captured its own page. */
  | { type: 'make-video-from-page'; capture: CapturedPage };

export type Answer =
  | { status: 'opened'; imageCount: number }
  /** The app's sign-in page was opened; `resumes`: the video starts by itself once the user is signed in. */
  | { status: 'signIn'; resumes: boolean }
  | { status: 'failed'; message: string };

/** Asks the service worker; its answer's messages are already in the user's language. */
export const send = (request: Request) => chrome.runtime.sendMessage<Request, Answer>(request);
