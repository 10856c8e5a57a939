import { ENHANCE_MAX_LONG_SIDE, UPSCALE_N } from '@reelsmith/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Choice, imageRef, type PickedImage, SubmitBar, ToolLayout, useGenerationForm } from '../generation';
import type { EditToolProps } from './editTool';

type Scale = 2 | 4;

/** Whether a picture is small enough to enhance (spec "Validation rules": longest side at most 1920 px). */
export const enhanceable = (image: PickedImage) => Math.max(image.width ?? 0, image.height ?? 0) <= ENHANCE_MAX_LONG_SIDE;

/** HD enhancement: the picture upscaled 2× or 4×, one output (spec "Business constants": n is always 1). */
export function EnhanceTool({ title, nav, source, image }: EditToolProps) {
  const { t } = useTranslation(['image-edit', 'generation']);
  const form = useGenerationForm();
  const [scale, setScale] = useState<Scale>(2);
  const check = () => {
    if (!image) return t('generation:validation.productImageRequired');
    if (!enhanceable(image)) return t('enhance.tooLarge', { max: ENHANCE_MAX_LONG_SIDE });
    return null;
  };
  const submit = () => form.submit('enlarge-image', check, () => ({ ...imageRef(image as PickedImage), scale, n: UPSCALE_N }));
  return (
    <ToolLayout title={title} tool="enlarge-image" runs={form.runs} nav={nav}>
      {source}
      <Choice
        label={t('enhance.scale')}
        value={scale}
        options={[
          { value: 2, label: '2×' },
          { value: 4, label: '4×' },
        ]}
        onChange={setScale}
      />
      <SubmitBar skuCode="imageEnhance" problem={form.problem} submitting={form.submitting} onSubmit={submit} />
    </ToolLayout>
  );
}
