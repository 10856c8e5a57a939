import { EXTENSION_DOWNLOAD_PATH } from '@reelsmith/contract';
import { useEffect, useId, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { apiBase } from '../../../shared/prefix';
import styles from './extension.module.css';

/** The zip the server makes for itself (decision "Extension download"): it already knows this app's address. */
export const extensionDownloadUrl = () => `${apiBase()}${EXTENSION_DOWNLOAD_PATH}`;

/** Chrome's own names for what to click, so they match the screen: `link-to-video:extension.steps.<key>`. */
const STEPS = ['download', 'unzip', 'open', 'developerMode', 'loadUnpacked', 'use'] as const;

/**
 * "Get the browser extension", beside every hint that tells a user to send a page from it: a small dialog with the
 * download and the steps to install it unpacked. A plain dialog, not antd's Modal: the landing page carries it, and
 * its first load has a budget (decision "First-load bundle split").
 */
export function ExtensionHelp() {
  const { t } = useTranslation('link-to-video');
  const [open, setOpen] = useState(false);
  const titleId = useId();
  const close = useRef<HTMLButtonElement>(null);
  const opener = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    close.current?.focus();
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && setOpen(false);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      opener.current?.focus();
    };
  }, [open]);

  return (
    <>
      <button ref={opener} type="button" className={styles.opener} onClick={() => setOpen(true)}>
        {t('extension.get')}
      </button>
      {open &&
        // Out of the sentence the button sits in (a paragraph holds no dialog), over the whole page.
        createPortal(
          // biome-ignore lint/a11y/noStaticElementInteractions: the backdrop closes on click as a convenience; Escape and the Close button are the accessible ways.
          // biome-ignore lint/a11y/useKeyWithClickEvents: Escape is handled on the document while the dialog is open.
          <div className={styles.backdrop} onClick={(event) => event.target === event.currentTarget && setOpen(false)}>
            <div className={styles.dialog} role="dialog" aria-modal="true" aria-labelledby={titleId}>
              <h2 id={titleId} className={styles.title}>
                {t('extension.title')}
              </h2>
              <p className={styles.intro}>{t('extension.intro')}</p>
              <ol className={styles.steps}>
                {STEPS.map((step) => (
                  <li key={step}>
                    {t(`extension.steps.${step}`)}
                    {step === 'download' && (
                      <a className={styles.download} href={extensionDownloadUrl()} download>
                        {t('extension.download')}
                      </a>
                    )}
                    {step === 'open' && <code className={styles.address}>chrome://extensions</code>}
                  </li>
                ))}
              </ol>
              <p className={styles.note}>{t('extension.note')}</p>
              <button ref={close} type="button" className={styles.close} onClick={() => setOpen(false)}>
                {t('extension.close')}
              </button>
            </div>
          </div>,
          document.body,
        )}
    </>
  );
}
