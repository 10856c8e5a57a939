/**
 * The toolbar popup: "Make a video" for the tab it was opened on. Clicking the toolbar icon granted activeTab on
 * that tab, so the service worker may capture it. `?tabId=` names the tab instead of the active one: the popup
 * opened as a page of its own (as the browser tests do) is itself the active tab.
 */
import './pages.css';
import { localisePage, t } from '../i18n';
import { type Answer, send } from '../messages';
import { readSettings } from '../settings';
import { privacyPolicyUrl } from '../urls';

localisePage(document);
const make = document.getElementById('make') as HTMLButtonElement;
const status = document.getElementById('status') as HTMLElement;

async function targetTab(): Promise<number | undefined> {
  const named = Number(new URLSearchParams(location.search).get('tabId'));
  if (Number.isInteger(named) && named > 0) return named;
  const [tab] = await chrome.tabs.query({ active: true, currentWindow: true });
  return tab?.id;
}

function show(text: string, error = false) {
  status.textContent = text;
  status.classList.toggle('error', error);
}

function showAnswer(answer: Answer) {
  if (answer.status === 'opened') show(`${t('opened')} ${t('imagesFound', String(answer.imageCount))}`);
  else if (answer.status === 'signIn') show(t(answer.resumes ? 'signInResumes' : 'signInRetry'));
  else show(answer.message, true);
}

make.addEventListener('click', async () => {
  const tabId = await targetTab();
  if (tabId === undefined) return show(t('notWebPage'), true);
  make.disabled = true;
  show(t('uploading'));
  try {
    showAnswer(await send({ type: 'make-video', tabId }));
  } finally {
    make.disabled = false;
  }
});

document.getElementById('options')?.addEventListener('click', () => {
  void chrome.runtime.openOptionsPage();
});
document.getElementById('privacy')?.addEventListener('click', async () => {
  await chrome.tabs.create({ url: privacyPolicyUrl((await readSettings()).appOrigin) });
});
