import { HttpUrl } from '@reelsmith/contract';
import { Alert, Button, Input } from 'antd';
import { type FormEvent, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { StoredAsset } from '../../../shared/library/LibraryPickerModal';
import { UploadButton } from '../../../shared/library/UploadButton';
import { useLibraryUploads } from '../../../shared/library/useLibraryUploads';
import { ExtensionHelp } from '../extension/ExtensionHelp';
import styles from '../flow.module.css';
import { allAssets, toProjectAsset } from '../project/assets';
import { projectController } from '../project/open';
import { emptyProduct, type Project } from '../project/types';
import type { ManualProblems } from '../project/validate';
import { AssetTile } from './AssetTile';
import { UploadProgress } from './UploadProgress';

/**
 * The product page when its analysis failed (decision "Manual product entry"): why, in the reader's language; the
 * link to correct and analyse again; and the product entered by hand (name, description, pictures from the
 * computer), which goes on to the product editor as if the page had been read.
 */
export function AnalysisFailed({ project, reason }: { project: Project; reason: string | null }) {
  const { t } = useTranslation('link-to-video');
  return (
    <div className={styles.page}>
      <Alert
        type="error"
        showIcon
        title={t('product.analysisFailed')}
        description={
          <>
            {reason && <p className={styles.failureReason}>{reason}</p>}
            <p className={styles.failureNext}>
              {t('failed.whatNext')} <ExtensionHelp />
            </p>
          </>
        }
      />
      <div className={styles.failedColumns}>
        <LinkAgain link={project.productLink} />
        <ManualEntry project={project} />
      </div>
    </div>
  );
}

/** The product link as it was, to correct and analyse again. */
function LinkAgain({ link }: { link: string }) {
  const { t } = useTranslation(['link-to-video', 'errors']);
  const [value, setValue] = useState(link);
  const [problem, setProblem] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = HttpUrl.safeParse(value.trim());
    if (!parsed.success) {
      setProblem(t('errors:invalidProductUrl'));
      return;
    }
    setSending(true);
    // The page shows the analysis once it is submitted; a refused submit has been said by the API client.
    await projectController()
      ?.analyseLink(parsed.data)
      .catch(() => undefined);
    setSending(false);
  };

  return (
    <section className={styles.panel} aria-labelledby="link-again-title">
      <h2 id="link-again-title" className={styles.panelTitle}>
        {t('failed.linkTitle')}
      </h2>
      <form className={styles.linkAgain} onSubmit={submit} noValidate>
        <Input
          type="url"
          inputMode="url"
          aria-label={t('failed.linkLabel')}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? 'link-again-problem' : undefined}
          status={problem ? 'error' : undefined}
          value={value}
          onChange={(event) => {
            setValue(event.target.value);
            setProblem(null);
          }}
        />
        <Button htmlType="submit" loading={sending}>
          {t('failed.analyseAgain')}
        </Button>
      </form>
      {problem && (
        <p id="link-again-problem" role="alert" className={styles.fieldError}>
          {problem}
        </p>
      )}
    </section>
  );
}

/** The product entered by hand, kept in the draft as it is typed; Continue checks it has a name and a picture. */
function ManualEntry({ project }: { project: Project }) {
  const { t } = useTranslation('link-to-video');
  const entered = project.manualProduct ?? emptyProduct();
  const pictures = allAssets(entered);
  const [problems, setProblems] = useState<ManualProblems | null>(null);
  const { uploads, upload } = useLibraryUploads(
    useCallback((asset: StoredAsset) => projectController()?.addManualPictures([toProjectAsset(asset)]), []),
  );
  // A problem goes as soon as its field is put right.
  const nameProblem = entered.productName.trim() ? null : problems?.name;
  const picturesProblem = pictures.length > 0 ? null : problems?.pictures;

  const goOn = () => {
    const found = projectController()?.enterProductByHand() ?? null;
    setProblems(found);
    // The first field to put right is where the user goes next.
    if (found?.name) document.getElementById('manual-name')?.focus();
  };

  return (
    <section className={styles.panel} aria-labelledby="manual-title">
      <h2 id="manual-title" className={styles.panelTitle}>
        {t('failed.manualTitle')}
      </h2>
      <p className={styles.hint}>{t('failed.manualHint')}</p>
      <label className={styles.hint} htmlFor="manual-name">
        {t('product.nameLabel')}
      </label>
      <Input
        id="manual-name"
        maxLength={500}
        value={entered.productName}
        status={nameProblem ? 'error' : undefined}
        aria-invalid={nameProblem ? true : undefined}
        aria-describedby={nameProblem ? 'manual-name-problem' : undefined}
        onChange={(event) => projectController()?.patchManualProduct({ productName: event.target.value })}
      />
      {nameProblem && (
        <p id="manual-name-problem" role="alert" className={styles.fieldError}>
          {t(nameProblem)}
        </p>
      )}
      <label className={styles.hint} htmlFor="manual-description">
        {t('product.descriptionLabel')}
      </label>
      <Input.TextArea
        id="manual-description"
        autoSize={{ minRows: 3, maxRows: 8 }}
        maxLength={10_000}
        value={entered.productDescription}
        onChange={(event) => projectController()?.patchManualProduct({ productDescription: event.target.value })}
      />
      <span className={styles.hint} id="manual-pictures">
        {t('failed.picturesLabel')}
      </span>
      {pictures.length > 0 && (
        <ul className={styles.assetGrid} aria-labelledby="manual-pictures">
          {pictures.map((asset) => (
            <AssetTile
              key={asset.fileId}
              asset={asset}
              importing={false}
              onRemove={() => projectController()?.removeManualPicture(asset.fileId)}
            />
          ))}
        </ul>
      )}
      <div className={styles.uploadRow}>
        <UploadButton label={t('failed.uploadPictures')} onFiles={upload} />
      </div>
      <UploadProgress uploads={uploads} />
      {picturesProblem && (
        <p role="alert" className={styles.fieldError}>
          {t(picturesProblem)}
        </p>
      )}
      <Button type="primary" size="large" block disabled={uploads.length > 0} onClick={goOn}>
        {t('failed.continue')}
      </Button>
    </section>
  );
}
