import { InputNumber } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Choice } from '../generation/fields';
import styles from '../generation/generation.module.css';
import { imageRef, type PickedImage } from '../generation/pickedImage';
import { SubmitBar, ToolLayout } from '../generation/ToolLayout';
import { useGenerationForm } from '../generation/useGenerationForm';
import type { EditToolProps } from './editTool';
import { ExtendCanvas } from './ExtendCanvas';
import { EXTEND_RATIOS, type ExtendRatio, type Frame, frameForRatio, freeFrame, MAX_CANVAS_SIDE } from './frame';
import editStyles from './imageEdit.module.css';

type Shape = ExtendRatio | 'free';

const sizeOf = (image: PickedImage | null) => (image?.width && image.height ? { width: image.width, height: image.height } : null);

/** Image extension: the canvas around the picture grown to a ratio or a free size, the new area generated. */
export function ExtendTool({ title, nav, source, image }: EditToolProps) {
  const { t } = useTranslation(['image-edit', 'generation']);
  const form = useGenerationForm();
  const [shape, setShape] = useState<Shape>('1:1');
  const size = sizeOf(image);
  const [frame, setFrame] = useState<Frame | null>(null);

  // A new picture or ratio starts from the smallest frame of that shape, the picture centred.
  useEffect(() => {
    if (!size) return setFrame(null);
    setFrame(shape === 'free' ? freeFrame(size, Math.round(size.width * 1.5), Math.round(size.height * 1.5)) : frameForRatio(size, shape));
  }, [size?.width, size?.height, shape, image?.fileId]);

  const check = () => (image && frame ? null : t('generation:validation.productImageRequired'));
  const submit = () =>
    form.submit('expand-image', check, () => ({
      ...imageRef(image as PickedImage),
      ...(shape === 'free' ? {} : { ratio: shape }),
      canvas: frame as Frame,
    }));

  return (
    <ToolLayout title={title} tool="expand-image" runs={form.runs} nav={nav}>
      {source}
      <Choice
        label={t('extend.shape')}
        value={shape}
        options={[...EXTEND_RATIOS.map((ratio) => ({ value: ratio as Shape, label: ratio })), { value: 'free', label: t('extend.free') }]}
        onChange={setShape}
      />
      {shape === 'free' && size && frame && (
        <div className={styles.field} role="group" aria-label={t('extend.size')}>
          <span className={styles.label}>{t('extend.size')}</span>
          <div className={editStyles.sizeInputs}>
            <InputNumber
              aria-label={t('extend.width')}
              min={size.width}
              max={MAX_CANVAS_SIDE}
              value={frame.width}
              onChange={(width) => setFrame(freeFrame(size, width ?? size.width, frame.height, frame))}
            />
            ×
            <InputNumber
              aria-label={t('extend.height')}
              min={size.height}
              max={MAX_CANVAS_SIDE}
              value={frame.height}
              onChange={(height) => setFrame(freeFrame(size, frame.width, height ?? size.height, frame))}
            />
            px
          </div>
        </div>
      )}
      {image && size && frame && <ExtendCanvas url={image.url} image={size} frame={frame} onChange={setFrame} />}
      <SubmitBar skuCode="extendImg" problem={form.problem} submitting={form.submitting} onSubmit={submit} />
    </ToolLayout>
  );
}
