import type { Locale } from '@reelsmith/contract';
import { linkVideoVoices } from '@reelsmith/contract';
import { useQuery } from '@tanstack/react-query';
import { Segmented } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callQuery } from '../../../shared/api/queries';
import styles from '../flow.module.css';
import { defaultVoiceId } from './defaults';
import { EditorChoice } from './EditorChoice';
import { SamplePlayer } from './SamplePlayer';
import { filterVoices, type GenderFilter, type VoiceGroup } from './voices';

/**
 * The voice-over in the video's language: recommended or other voices, filtered male, female or all; the current
 * voice (the chosen one, else the language's default) selected, and its tab open; the choice autosaves.
 */
export function VoicePicker({ voiceId, language }: { voiceId: string | undefined; language: Locale }) {
  const { t } = useTranslation('link-to-video');
  const voices = useQuery(callQuery(linkVideoVoices, { query: { language } }));
  const all = voices.data ?? [];
  const current = voiceId ?? defaultVoiceId(all, language);
  const [picked, setGroup] = useState<VoiceGroup | undefined>(undefined);
  // Until a tab is picked, the one holding the current voice.
  const group = picked ?? (all.find((v) => v.voiceId === current)?.recommended === false ? 'other' : 'recommended');
  const [gender, setGender] = useState<GenderFilter>('all');
  const shown = filterVoices(all, group, gender);
  return (
    <EditorChoice
      field="voiceId"
      title={t('editor.voice')}
      value={current}
      loading={voices.isPending}
      choices={shown.map((voice) => ({
        value: voice.voiceId,
        label: voice.name,
        content: (
          <>
            {voice.name} <SamplePlayer url={voice.sampleUrl} label={voice.name} />
          </>
        ),
      }))}
    >
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
      {all.some((voice) => voice.offline) && <p className={styles.hint}>{t('editor.offlineVoices')}</p>}
    </EditorChoice>
  );
}
