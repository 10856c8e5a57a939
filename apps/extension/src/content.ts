/**
 * In the page: defines the capture the service worker runs (when the popup asks), and on recognised shops shows
 * the floating "Make a video" button, unless the user turned it off in the options. Nothing is read or sent
 * until the user clicks.
 */
import { BUTTON_HOST_ID, type CapturedPage, capturePage } from './capture';
import { t } from './i18n';
import { send } from './messages';
import { readSettings } from './settings';
import { isRecognisedShop } from './shops';

declare global {
  var reelsmithCapture: (() => CapturedPage) | undefined;
}

const BUTTON_STYLE = `
:host { all: initial; position: fixed; right: 20px; bottom: 20px; z-index: 2147483647; font: 14px/1.3 system-ui, sans-serif; }
.bar { display: flex; align-items: center; gap: 4px; background: #0b0e14; border-radius: 999px; padding: 4px; box-shadow: 0 4px 16px rgba(0,0,0,.35); }
button { border: 0; cursor: pointer; font: inherit; border-radius: 999px; }
.make { background: #1adb74; color: #0b0e14; font-weight: 600; padding: 8px 14px; }
.make[disabled] { opacity: .7; cursor: progress; }
.hide { background: transparent; color: #c9d1d9; width: 28px; height: 28px; }
.note { position: absolute; right: 0; bottom: 48px; max-width: 260px; background: #0b0e14; color: #e6edf3; padding: 8px 10px; border-radius: 8px; }
.note:empty { display: none; }
`;

function noteFor(answer: Awaited<ReturnType<typeof send>>): string {
  if (answer.status === 'opened') return t('opened');
  if (answer.status === 'signIn') return t(answer.resumes ? 'signInResumes' : 'signInRetry');
  return answer.message;
}

function showButton() {
  const host = document.createElement('div');
  host.id = BUTTON_HOST_ID;
  // Open, so tests can reach it; a page's script cannot press it: only a person's (trusted) click counts.
  const root = host.attachShadow({ mode: 'open' });
  root.innerHTML = `<style>${BUTTON_STYLE}</style><div class="bar"><button class="make" type="button"></button><button class="hide" type="button">×</button></div><div class="note" role="status"></div>`;
  const make = root.querySelector('.make') as HTMLButtonElement;
  const hide = root.querySelector('.hide') as HTMLButtonElement;
  const note = root.querySelector('.note') as HTMLElement;
  make.textContent = t('makeVideo');
  hide.title = t('hideButton');
  hide.setAttribute('aria-label', t('hideButton'));
  make.addEventListener('click', async (event) => {
    if (!event.isTrusted) return;
    make.disabled = true;
    note.textContent = t('uploading');
    try {
      note.textContent = noteFor(await send({ type: 'make-video-from-page', capture: capturePage(document) }));
    } finally {
      make.disabled = false;
    }
  });
  hide.addEventListener('click', () => host.remove());
  document.body.append(host);
  chrome.storage.onChanged.addListener((changes) => {
    if (changes.floatingButton?.newValue === false) host.remove();
  });
}

if (!globalThis.reelsmithCapture) {
  globalThis.reelsmithCapture = () => capturePage(document);
  if (isRecognisedShop(document)) {
    void readSettings().then((settings) => {
      if (settings.floatingButton) showButton();
    });
  }
}
