import { productBackgroundList } from '@reelsmith/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callQuery } from '../../shared/api/queries';
import {
  Choice,
  ImageInput,
  imageRef,
  type PickedImage,
  PresetTiles,
  SubmitBar,
  generationStyles as styles,
  ToolLayout,
  useGenerationForm,
} from '../generation';
import type { EditToolProps } from './editTool';

type Mode = 'remove' | 'replace';
type Background = { source: 'preset'; backgroundId: string } | { source: 'upload'; image: PickedImage };

/** AI background: the background removed, or replaced with a preset or the user's own picture. */
export function BackgroundTool({ title, nav, source, image }: EditToolProps) {
  const { t } = useTranslation(['image-edit', 'generation']);
  const [mode, setMode] = useState<Mode>('remove');
  const [background, setBackground] = useState<Background | null>(null);
  const presets = useQuery({
    ...callQuery(productBackgroundList, { query: {} }),
    enabled: mode === 'replace',
    staleTime: Infinity,
  });

  const check = () => {
    if (!image) return t('generation:validation.productImageRequired');
    if (mode === 'replace' && !background) return t('generation:validation.backgroundRequired');
    return null;
  };
  const form = useGenerationForm(check);
  const submit = () => {
    if (mode === 'remove') return form.submit('remove-background', () => imageRef(image as PickedImage));
    return form.submit('product-background', () => {
      const chosen = background as Background;
      return {
        ...imageRef(image as PickedImage),
        ...(chosen.source === 'preset' ? { backgroundId: chosen.backgroundId } : { backgroundResKey: chosen.image.resKey }),
      };
    });
  };

  return (
    <ToolLayout
      title={title}
      // One history for both modes, each record labelled with its own, so a result just made stays in view on a switch.
      tool={{ 'remove-background': t('background.remove'), 'product-background': t('background.replace') }}
      form={form}
      nav={nav}
    >
      {source}
      <Choice
        label={t('background.mode')}
        value={mode}
        options={[
          { value: 'remove', label: t('background.remove') },
          { value: 'replace', label: t('background.replace') },
        ]}
        onChange={setMode}
      />
      {mode === 'replace' && (
        <div className={styles.field}>
          <span className={styles.label}>{t('background.title')}</span>
          <PresetTiles
            label={t('background.presets')}
            presets={(presets.data ?? []).map((entry) => ({ id: entry.backgroundId, name: entry.name, imageUrl: entry.imageUrl }))}
            chosen={background?.source === 'preset' ? background.backgroundId : null}
            onChoose={(preset) => setBackground({ source: 'preset', backgroundId: preset.id })}
          />
          <ImageInput
            label={t('background.own')}
            value={background?.source === 'upload' ? background.image : null}
            onChange={(picked) => setBackground(picked ? { source: 'upload', image: picked } : null)}
          />
        </div>
      )}
      <SubmitBar skuCode="imageBg" problem={form.problem} submitting={form.submitting} onSubmit={submit} />
    </ToolLayout>
  );
}
