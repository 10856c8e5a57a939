import { linkVideoVoices } from '@reelsmith/contract';
import { useQuery } from '@tanstack/react-query';
import { Radio, Segmented } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../shared/api/client';
import { Busy } from '../../../shared/ui/Busy';
import styles from '../flow.module.css';
import { projectController } from '../project/open';
import { SamplePlayer } from './SamplePlayer';
import { filterVoices, type GenderFilter, type VoiceGroup } from './voices';

/** The voice-over: recommended or other voices, filtered male, female or all; the choice autosaves. */
export function VoicePicker({ voiceId }: { voiceId: string | undefined }) {
  const { t } = useTranslation('link-to-video');
  const [group, setGroup] = useState<VoiceGroup>('recommended');
  const [gender, setGender] = useState<GenderFilter>('all');
  const voices = useQuery({ queryKey: ['link-video', 'voices'], queryFn: ({ signal }) => api(linkVideoVoices, { signal }) });
  const shown = filterVoices(voices.data ?? [], group, gender);
  return (
    <section className={styles.panel} aria-labelledby="voice-title">
      <h3 id="voice-title" className={styles.panelTitle}>
        {t('editor.voice')}
      </h3>
      <Segmented<VoiceGroup>
        value={group}
        onChange={setGroup}
        options={[
          { value: 'recommended', label: t('editor.recommended') },
          { value: 'other', label: t('editor.other') },
        ]}
      />
      <Segmented<GenderFilter>
        size="small"
        value={gender}
        onChange={setGender}
        options={(['all', 'male', 'female'] as const).map((value) => ({ value, label: t(`editor.${value}`) }))}
      />
      {voices.isPending && <Busy compact />}
      <Radio.Group
        value={voiceId}
        onChange={(event) => projectController()?.patchEditorConfig({ voiceId: event.target.value as string })}
        className={styles.choices}
      >
        {shown.map((voice) => (
          <Radio.Button key={voice.voiceId} value={voice.voiceId}>
            {voice.name} <SamplePlayer url={voice.sampleUrl} label={voice.name} />
          </Radio.Button>
        ))}
      </Radio.Group>
    </section>
  );
}
