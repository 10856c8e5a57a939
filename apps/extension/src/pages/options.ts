/**
 * Options: the app's address (and API prefix) and the floating button. A new address needs the host permission
 * for it, asked for on Save (the click is the user gesture Chrome requires); nothing is saved without it.
 */
import './pages.css';
import { localisePage, t } from '../i18n';
import { isApiPrefix, originOf, originPattern, readSettings, saveSettings } from '../settings';
import { privacyPolicyUrl } from '../urls';

localisePage(document);
const form = document.getElementById('form') as HTMLFormElement;
const appOrigin = document.getElementById('appOrigin') as HTMLInputElement;
const apiPrefix = document.getElementById('apiPrefix') as HTMLInputElement;
const floatingButton = document.getElementById('floatingButton') as HTMLInputElement;
const status = document.getElementById('status') as HTMLElement;

function show(text: string, error = false) {
  status.textContent = text;
  status.classList.toggle('error', error);
}

void readSettings().then((settings) => {
  appOrigin.value = settings.appOrigin;
  apiPrefix.value = settings.apiPrefix;
  floatingButton.checked = settings.floatingButton;
});

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const origin = originOf(appOrigin.value);
  if (!origin) return show(t('invalidOrigin'), true);
  const prefix = apiPrefix.value.trim();
  if (!isApiPrefix(prefix)) return show(t('invalidApiPrefix'), true);
  // Asked first, while the click still counts as a user gesture.
  const granted = await chrome.permissions.request({ origins: [originPattern(origin)] });
  if (!granted) return show(t('permissionDenied'), true);
  await saveSettings({ appOrigin: origin, apiPrefix: prefix, floatingButton: floatingButton.checked });
  appOrigin.value = origin;
  show(t('saved'));
});

document.getElementById('privacy')?.addEventListener('click', async () => {
  await chrome.tabs.create({ url: privacyPolicyUrl((await readSettings()).appOrigin) });
});
