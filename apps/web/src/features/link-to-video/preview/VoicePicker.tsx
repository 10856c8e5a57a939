import { linkVideoVoices } from '@reelsmith/contract';
import { useQuery } from '@tanstack/react-query';
import { Segmented } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callQuery } from '../../../shared/api/queries';
import { EditorChoice } from './EditorChoice';
import { SamplePlayer } from './SamplePlayer';
import { filterVoices, type GenderFilter, type VoiceGroup } from './voices';

/** The voice-over: recommended or other voices, filtered male, female or all; the choice autosaves. */
export function VoicePicker({ voiceId }: { voiceId: string | undefined }) {
  const { t } = useTranslation('link-to-video');
  const [group, setGroup] = useState<VoiceGroup>('recommended');
  const [gender, setGender] = useState<GenderFilter>('all');
  const voices = useQuery(callQuery(linkVideoVoices));
  const shown = filterVoices(voices.data ?? [], group, gender);
  return (
    <EditorChoice
      field="voiceId"
      title={t('editor.voice')}
      value={voiceId}
      loading={voices.isPending}
      choices={shown.map((voice) => ({
        value: voice.voiceId,
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
    </EditorChoice>
  );
}
