import type { CaptionStyle } from '@reelsmith/contract';
import { useTranslation } from 'react-i18next';
import { Busy } from '../../../shared/ui/Busy';
import flow from '../flow.module.css';
import { projectController } from '../project/open';
import styles from './editor.module.css';

/** A subtitle style's name in the reader's language; the catalogue's own for a style the app has no words for yet. */
export function useCaptionName(): (caption: CaptionStyle) => string {
  const { t } = useTranslation('link-to-video');
  return (caption) => t(`editor.captionStyles.${caption.captionId}`, { defaultValue: caption.name });
}

/**
 * The subtitle style (decision "Word-timed captions"): each style a tile of its caption rendered over a sample shot
 * at its own 4:3 shape, its name under it; the current style is selected and a choice autosaves.
 */
export function CaptionPicker({ captions, value, loading }: { captions: CaptionStyle[]; value: string | undefined; loading: boolean }) {
  const { t } = useTranslation('link-to-video');
  const nameOf = useCaptionName();
  return (
    <section className={flow.panel} aria-labelledby="captionId-title">
      <h3 id="captionId-title" className={flow.panelTitle}>
        {t('editor.subtitle')}
      </h3>
      {loading && <Busy compact />}
      <div role="radiogroup" aria-labelledby="captionId-title" className={styles.captionGrid}>
        {captions.map((caption) => (
          <label key={caption.captionId} className={styles.captionTile}>
            <input
              type="radio"
              name="captionId"
              value={caption.captionId}
              checked={caption.captionId === value}
              onChange={() => projectController()?.patchEditorConfig({ captionId: caption.captionId })}
            />
            <span className={styles.captionThumb}>
              {caption.previewUrl && <img src={caption.previewUrl} alt="" loading="lazy" decoding="async" width={360} height={270} />}
            </span>
            <span className={styles.captionName}>{nameOf(caption)}</span>
          </label>
        ))}
      </div>
    </section>
  );
}
