import { CLIENT_LOG_BATCH_MAX, CLIENT_LOG_MESSAGE_MAX, type ClientLogEntry } from '@reelsmith/contract';

/**
 * The web app's side of the log collection endpoint (spec "Error catalogue", decision "Client logs"): client errors
 * and failed calls and tasks are queued, sent in batches a few seconds apart, at most MAX_PER_MINUTE a minute, and a
 * failure to send is ignored: logging must never become the error a user sees.
 */
const FLUSH_AFTER_MS = 3000;
const MAX_PER_MINUTE = 30;

type Send = (entries: ClientLogEntry[]) => Promise<unknown>;

let send: Send | null = null;
let queue: ClientLogEntry[] = [];
let timer: ReturnType<typeof setTimeout> | undefined;
let windowStart = 0;
let inWindow = 0;
/** Leaving the page cuts its calls short: those failures are the navigation, not errors. */
let leaving = false;

/** Where entries go: the app's API client, set once at start (this module imports nothing that could log itself). */
export function startClientLogs(sender: Send): () => void {
  send = sender;
  windowStart = 0;
  inWindow = 0;
  leaving = false;
  const onError = (event: ErrorEvent) => logClient({ kind: 'error', message: event.message || String(event.error) });
  const onRejection = (event: PromiseRejectionEvent) =>
    logClient({ kind: 'unhandledRejection', message: event.reason instanceof Error ? event.reason.message : String(event.reason) });
  const onHide = () => {
    flush();
    leaving = true;
  };
  const onShow = () => {
    leaving = false;
  };
  window.addEventListener('error', onError);
  window.addEventListener('unhandledrejection', onRejection);
  window.addEventListener('pagehide', onHide);
  window.addEventListener('pageshow', onShow);
  return () => {
    window.removeEventListener('error', onError);
    window.removeEventListener('unhandledrejection', onRejection);
    window.removeEventListener('pagehide', onHide);
    window.removeEventListener('pageshow', onShow);
    clearTimeout(timer);
    queue = [];
    send = null;
  };
}

export function logClient(entry: Pick<ClientLogEntry, 'kind' | 'message'> & Partial<Pick<ClientLogEntry, 'call' | 'code'>>): void {
  if (!send || leaving) return;
  const now = Date.now();
  if (now - windowStart > 60_000) {
    windowStart = now;
    inWindow = 0;
  }
  if (inWindow >= MAX_PER_MINUTE) return;
  inWindow++;
  // The page's path only: its query may hold a product link the user pasted.
  queue.push({
    ...entry,
    message: entry.message.slice(0, CLIENT_LOG_MESSAGE_MAX),
    route: location.pathname.slice(0, 200),
    at: new Date(now).toISOString(),
  });
  if (queue.length >= CLIENT_LOG_BATCH_MAX) flush();
  else timer ??= setTimeout(flush, FLUSH_AFTER_MS);
}

function flush(): void {
  clearTimeout(timer);
  timer = undefined;
  const batch = queue.splice(0, CLIENT_LOG_BATCH_MAX);
  if (batch.length === 0 || !send) return;
  // The spec's rule: the collection endpoint's errors are silently ignored.
  send(batch).catch(() => undefined);
  if (queue.length > 0) timer = setTimeout(flush, FLUSH_AFTER_MS);
}
