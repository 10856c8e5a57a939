import { ENHANCE_MAX_LONG_SIDE, health, UPSCALE_N } from '@reelsmith/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callQuery } from '../../shared/api/queries';
import { Choice, imageRef, type PickedImage, SubmitBar, ToolLayout, useGenerationForm } from '../generation';
import type { EditToolProps } from './editTool';

type Scale = 2 | 4;

/** Whether a picture is small enough to enhance (spec "Validation rules": longest side at most 1920 px). */
export const enhanceable = (image: PickedImage) => Math.max(image.width ?? 0, image.height ?? 0) <= ENHANCE_MAX_LONG_SIDE;

/**
 * Which engine enlarges: a vendor's name where /health reports one for `upscale`, else "local" (also while it is
 * unknown). Decision "Sharpen and enlarge": the local engine only sharpens, and the form says so.
 */
export function upscaleEngine(engine: Record<string, unknown> | undefined): string {
  const providers = engine?.providers;
  const name = providers && typeof providers === 'object' ? (providers as Record<string, unknown>).upscale : undefined;
  return typeof name === 'string' && name !== 'local' && name !== 'sandbox' ? name : 'local';
}

/** HD enhancement: the picture upscaled 2× or 4×, one output (spec "Business constants": n is always 1). */
export function EnhanceTool({ title, nav, source, image }: EditToolProps) {
  const { t } = useTranslation(['image-edit', 'generation']);
  const [scale, setScale] = useState<Scale>(2);
  const check = () => {
    if (!image) return t('generation:validation.productImageRequired');
    if (!enhanceable(image)) return t('enhance.tooLarge', { max: ENHANCE_MAX_LONG_SIDE });
    return null;
  };
  const form = useGenerationForm(check);
  const engine = upscaleEngine(useQuery({ ...callQuery(health), staleTime: Number.POSITIVE_INFINITY }).data?.engine);
  const submit = () => form.submit('enlarge-image', () => ({ ...imageRef(image as PickedImage), scale, n: UPSCALE_N }));
  return (
    <ToolLayout title={title} tool="enlarge-image" form={form} nav={nav}>
      {source}
      <Alert
        type="info"
        role="note"
        showIcon
        title={engine === 'local' ? t('enhance.engine') : t('enhance.vendorEngine', { name: engine })}
        description={engine === 'local' ? t('enhance.engineHint') : t('enhance.vendorHint')}
      />
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
