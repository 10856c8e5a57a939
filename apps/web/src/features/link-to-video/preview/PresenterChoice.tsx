import { avatarEngine, PRESENTER_LAYOUTS, type PresenterLayout } from '@reelsmith/contract';
import { useQuery } from '@tanstack/react-query';
import { Segmented } from 'antd';
import { useTranslation } from 'react-i18next';
import { callQuery } from '../../../shared/api/queries';
import { HoldProduct, PresenterField, usePresenters } from '../../avatar';
import styles from '../flow.module.css';
import { PresenterIntro } from '../PresenterIntro';
import type { Project } from '../project/types';
import { useRerender } from './rerender';

/**
 * The edited video's presenter in the quick editor (decision "Presenter in link to video"): none, a saved one (the
 * catalogue's or the user's own), the user's own photo kept as a presenter after their consent, or one made from a
 * description, and where they stand: the opening and the close, in a corner over the product, or beside it on a
 * split screen (decision "Presenter layouts"; the template's place until one is chosen). Choosing re-renders the
 * video at once, their portrait held; they talk in the export, which adds their seconds on camera to its price.
 * Hidden where no one can make a presenter talk.
 */
export function PresenterChoice({ project, updating }: { project: Project; updating: boolean }) {
  const { t } = useTranslation('link-to-video');
  const engine = useQuery(callQuery(avatarEngine, {}));
  const presenters = usePresenters();
  const { video, chosen, rerender } = useRerender<{ presenterId: string | null; presenterLayout?: PresenterLayout }>(project, updating);
  if (!video || !engine.data || engine.data.engine === null) return null;
  const current = chosen ? chosen.presenterId : (video.presenterId ?? null);
  const layout = chosen?.presenterLayout ?? video.presenterLayout;
  const chosenOne = presenters.data?.find((presenter) => presenter.presenterId === current);
  // Any of the product's pictures may be put in their hands, the first unless another is chosen (decision "Product in hand").
  const productPictures = (project.product?.productImages ?? []).map(({ fileId, fileUrl, fileName }) => ({
    fileId,
    url: fileUrl,
    name: fileName,
  }));
  const put = (presenterId: string | null) => (presenterId === (video.presenterId ?? null) ? Promise.resolve() : rerender({ presenterId }));

  return (
    <section className={styles.panel} aria-labelledby="presenter-choice-title">
      <h3 id="presenter-choice-title" className={styles.panelTitle}>
        {t('presenter.title')}
      </h3>
      <PresenterIntro sandbox={engine.data.engine === 'sandbox'} />
      {current !== null && layout && (
        <>
          <span id="presenter-layout" className={styles.hint}>
            {t('presenter.layout')}
          </span>
          <Segmented
            aria-labelledby="presenter-layout"
            name="presenter-layout"
            block
            disabled={updating}
            value={layout}
            options={PRESENTER_LAYOUTS.map((value) => ({ value, label: t(`presenter.layouts.${value}`) }))}
            onChange={(presenterLayout) => {
              if (presenterLayout !== video.presenterLayout) void rerender({ presenterId: current, presenterLayout });
            }}
          />
        </>
      )}
      {chosenOne && <HoldProduct presenter={chosenOne} pictures={productPictures} onHeld={(id) => void put(id)} />}
      <PresenterField presenterId={current} disabled={updating} onChoose={(presenterId) => void put(presenterId)} />
    </section>
  );
}
