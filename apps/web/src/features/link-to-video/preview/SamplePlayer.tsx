import { PauseCircleOutlined, PlayCircleOutlined } from '@ant-design/icons';
import { type MouseEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import styles from './editor.module.css';
import { playSample, stopSample } from './samplePlayback';

/**
 * Plays a voice or music sample in place, one in the editor at a time (a new one stops the one before); nothing
 * when there is no sample yet.
 */
export function SamplePlayer({ url, label }: { url: string | null; label: string }) {
  const { t } = useTranslation('link-to-video');
  const audio = useRef<HTMLAudioElement | null>(null);
  const [playing, setPlaying] = useState(false);
  useEffect(() => () => stopSample(audio.current ?? undefined), []);
  if (!url) return null;

  const toggle = (event: MouseEvent) => {
    // The sample sits inside a choice; listening must not choose it.
    event.preventDefault();
    event.stopPropagation();
    if (playing) {
      stopSample(audio.current ?? undefined);
      return;
    }
    audio.current ??= new Audio(url);
    setPlaying(true);
    playSample(audio.current, () => setPlaying(false)).catch(() => setPlaying(false));
  };

  return (
    <button
      type="button"
      className={styles.sample}
      aria-pressed={playing}
      aria-label={t(playing ? 'editor.stopSample' : 'editor.playSample', { name: label })}
      title={t(playing ? 'editor.stopSample' : 'editor.playSample', { name: label })}
      onClick={toggle}
    >
      {playing ? <PauseCircleOutlined /> : <PlayCircleOutlined />}
    </button>
  );
}
