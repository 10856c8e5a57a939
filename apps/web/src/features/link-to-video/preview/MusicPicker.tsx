import { linkVideoMusic } from '@reelsmith/contract';
import { useQuery } from '@tanstack/react-query';
import { Radio, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../../shared/api/client';
import { Busy } from '../../../shared/ui/Busy';
import styles from '../flow.module.css';
import { projectController } from '../project/open';
import { SamplePlayer } from './SamplePlayer';

/** The music bed: recommended tracks first; the choice autosaves. */
export function MusicPicker({ musicId }: { musicId: string | undefined }) {
  const { t } = useTranslation('link-to-video');
  const music = useQuery({ queryKey: ['link-video', 'music'], queryFn: ({ signal }) => api(linkVideoMusic, { signal }) });
  const tracks = [...(music.data ?? [])].sort((a, b) => Number(b.recommended) - Number(a.recommended));
  return (
    <section className={styles.panel} aria-labelledby="music-title">
      <h3 id="music-title" className={styles.panelTitle}>
        {t('editor.music')}
      </h3>
      {music.isPending && <Busy compact />}
      <Radio.Group
        value={musicId}
        onChange={(event) => projectController()?.patchEditorConfig({ musicId: event.target.value as string })}
        className={styles.choices}
      >
        {tracks.map((track) => (
          <Radio.Button key={track.musicId} value={track.musicId}>
            {track.name} {track.recommended && <Tag color="green">{t('editor.recommended')}</Tag>}
            <SamplePlayer url={track.sampleUrl} label={track.name} />
          </Radio.Button>
        ))}
      </Radio.Group>
    </section>
  );
}
