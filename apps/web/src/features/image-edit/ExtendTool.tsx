import { InputNumber } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Choice, imageRef, type PickedImage, SubmitBar, generationStyles as styles, ToolLayout, useGenerationForm } from '../generation';
import { ExtendCanvas } from './ExtendCanvas';
import type { EditToolProps } from './editTool';
import { EXTEND_RATIOS, type ExtendRatio, type Frame, frameForRatio, freeFrame, MAX_CANVAS_SIDE } from './frame';
import editStyles from './imageEdit.module.css';

type Shape = ExtendRatio | 'free';

/** The frame of a free size starts half as large again as the picture. */
const FREE_START = 1.5;

/**
 * The frame being edited. A new picture or shape starts again from the smallest frame of that shape (a free size
 * from half as large again), the picture centred; it is reset while rendering, as React advises for state that
 * follows a prop, so no frame of the previous picture is ever drawn.
 */
function useFrame(image: PickedImage | null, shape: Shape): [Frame | null, (frame: Frame) => void] {
  const size = sizeOf(image);
  const basis = size ? `${image?.fileId}:${size.width}x${size.height}:${shape}` : null;
  const [state, setState] = useState<{ basis: string | null; frame: Frame | null }>({ basis: null, frame: null });
  if (state.basis !== basis) {
    const frame = !size
      ? null
      : shape === 'free'
        ? freeFrame(size, size.width * FREE_START, size.height * FREE_START)
        : frameForRatio(size, shape);
    setState({ basis, frame });
    return [frame, (next) => setState({ basis, frame: next })];
  }
  return [state.frame, (next) => setState({ basis, frame: next })];
}

const sizeOf = (image: PickedImage | null) => (image?.width && image.height ? { width: image.width, height: image.height } : null);

/** Image extension: the canvas around the picture grown to a ratio or a free size, the new area generated. */
export function ExtendTool({ title, nav, source, image }: EditToolProps) {
  const { t } = useTranslation(['image-edit', 'generation']);
  const [shape, setShape] = useState<Shape>('1:1');
  const size = sizeOf(image);
  const [frame, setFrame] = useFrame(image, shape);

  const form = useGenerationForm(() => (image && frame ? null : t('generation:validation.productImageRequired')));
  const submit = () =>
    form.submit('expand-image', () => ({
      ...imageRef(image as PickedImage),
      ...(shape === 'free' ? {} : { ratio: shape }),
      canvas: frame as Frame,
    }));

  return (
    <ToolLayout title={title} tool="expand-image" form={form} nav={nav}>
      {source}
      <Choice
        label={t('extend.shape')}
        value={shape}
        options={[...EXTEND_RATIOS.map((ratio) => ({ value: ratio as Shape, label: ratio })), { value: 'free', label: t('extend.free') }]}
        onChange={setShape}
      />
      {shape === 'free' && size && frame && (
        <fieldset className={styles.fieldset}>
          <legend className={styles.label}>{t('extend.size')}</legend>
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
        </fieldset>
      )}
      {image && size && frame && (
        <ExtendCanvas url={image.url} image={size} frame={frame} resizable={shape === 'free'} onChange={setFrame} />
      )}
      <SubmitBar skuCode="extendImg" problem={form.problem} submitting={form.submitting} onSubmit={submit} />
    </ToolLayout>
  );
}
