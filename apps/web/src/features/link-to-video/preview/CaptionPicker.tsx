import { linkVideoCaptions } from '@reelsmith/contract';
import { useQuery } from '@tanstack/react-query';
import { Radio } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../../shared/api/client';
import { Busy } from '../../../shared/ui/Busy';
import styles from '../flow.module.css';
import { projectController } from '../project/open';

/** The subtitle style, shown by its preview image; the choice autosaves. */
export function CaptionPicker({ captionId }: { captionId: string | undefined }) {
  const { t } = useTranslation('link-to-video');
  const captions = useQuery({ queryKey: ['link-video', 'captions'], queryFn: ({ signal }) => api(linkVideoCaptions, { signal }) });
  return (
    <section className={styles.panel} aria-labelledby="caption-title">
      <h3 id="caption-title" className={styles.panelTitle}>
        {t('editor.subtitle')}
      </h3>
      {captions.isPending && <Busy compact />}
      <Radio.Group
        value={captionId}
        onChange={(event) => projectController()?.patchEditorConfig({ captionId: event.target.value as string })}
        className={styles.choices}
      >
        {(captions.data ?? []).map((caption) => (
          <Radio.Button key={caption.captionId} value={caption.captionId} aria-label={caption.name}>
            {caption.previewUrl ? <img className={styles.captionImage} src={caption.previewUrl} alt={caption.name} /> : caption.name}
          </Radio.Button>
        ))}
      </Radio.Group>
    </section>
  );
}
