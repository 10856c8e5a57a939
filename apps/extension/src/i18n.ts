/** Strings of the popup and options through chrome.i18n (`_locales/{en,zh_CN,pt_BR}`). */

export const t = (key: string, substitutions?: string | string[]) => chrome.i18n.getMessage(key, substitutions) || key;

/** Fills every `data-i18n` element's text (and `data-i18n-title` titles) of a page from the locale. */
export function localisePage(doc: Document) {
  doc.documentElement.lang = chrome.i18n.getUILanguage();
  for (const node of doc.querySelectorAll<HTMLElement>('[data-i18n]')) node.textContent = t(node.dataset.i18n ?? '');
  for (const node of doc.querySelectorAll<HTMLElement>('[data-i18n-title]')) node.title = t(node.dataset.i18nTitle ?? '');
}

/** The Accept-Language the app answers in: the browser's UI language, which chrome.i18n also follows. */
export const uiLanguage = () => chrome.i18n.getUILanguage();
