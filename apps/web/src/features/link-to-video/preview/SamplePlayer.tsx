import { PauseCircleOutlined, PlayCircleOutlined } from '@ant-design/icons';
import { type MouseEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import styles from '../flow.module.css';

/** Plays a voice or music sample in place; nothing when there is no sample yet. */
export function SamplePlayer({ url, label }: { url: string | null; label: string }) {
  const { t } = useTranslation('link-to-video');
  const audio = useRef<HTMLAudioElement | null>(null);
  const [playing, setPlaying] = useState(false);
  useEffect(() => () => audio.current?.pause(), []);
  if (!url) return null;

  const toggle = (event: MouseEvent) => {
    // The sample sits inside a choice; listening must not choose it.
    event.preventDefault();
    event.stopPropagation();
    audio.current ??= new Audio(url);
    audio.current.onended = () => setPlaying(false);
    if (playing) audio.current.pause();
    else void audio.current.play().catch(() => setPlaying(false));
    setPlaying(!playing);
  };

  return (
    <button type="button" className={styles.sample} aria-label={t('editor.playSample', { name: label })} onClick={toggle}>
      {playing ? <PauseCircleOutlined /> : <PlayCircleOutlined />}
    </button>
  );
}
