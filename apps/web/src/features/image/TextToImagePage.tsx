import { imageModels, productDemo } from '@reelsmith/contract';
import { useQuery } from '@tanstack/react-query';
import { Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callQuery } from '../../shared/api/queries';
import {
  Choice,
  type Count,
  CountChoice,
  ImageInput,
  imageRef,
  negativeOf,
  type PickedImage,
  PromptFields,
  type PromptValue,
  type Ratio,
  RatioChoice,
  SubmitBar,
  generationStyles as styles,
  ToolLayout,
  useGenerationForm,
} from '../generation';
import { ImageToolSwitch } from './imageTools';

type Model = 'v1' | 'v2';
type Quality = 'standard' | 'high';

/** The sample prompts of the twelve preset product categories (GET /mis/product-demo), as one-click inspiration. */
function Inspiration({ onPick }: { onPick: (prompt: string) => void }) {
  const { t } = useTranslation('image');
  const demos = useQuery({ ...callQuery(productDemo), staleTime: Infinity });
  if (!demos.data?.length) return null;
  return (
    <fieldset className={styles.fieldset}>
      <legend className={styles.label}>{t('inspiration')}</legend>
      <div className={styles.chips}>
        {demos.data.map((demo) => (
          <Tag.CheckableTag key={demo.category} checked={false} onChange={() => onPick(demo.prompt)}>
            {t(`category.${demo.category}`)}
          </Tag.CheckableTag>
        ))}
      </div>
    </fieldset>
  );
}

/** Text to image, and image to image when a reference picture is given (spec "Screens and routes" screen 4). */
export function TextToImagePage() {
  const { t } = useTranslation(['image', 'generation', 'app']);
  const [prompt, setPrompt] = useState<PromptValue>({ prompt: '', negativePrompt: '' });
  const [image, setImage] = useState<PickedImage | null>(null);
  const [ratio, setRatio] = useState<Ratio>('1:1');
  const [model, setModel] = useState<Model>('v1');
  const [quality, setQuality] = useState<Quality>('standard');
  const [count, setCount] = useState<Count>(1);

  // "Detailed" is offered only where the server has a second model for it (decision "Image models named by what
  // they do"); a choice the reference picture's mode does not offer falls back to "Fast".
  const models = useQuery({ ...callQuery(imageModels, { query: { mode: image ? 'image' : 'text' }, silent: true }), staleTime: Infinity });
  const offered: readonly Model[] = models.data ?? ['v1'];
  const chosenModel: Model = offered.includes(model) ? model : 'v1';

  const form = useGenerationForm(() => (prompt.prompt.trim() ? null : t('generation:validation.promptEmpty')));
  const submit = () =>
    form.submit('text-to-image', () => ({
      prompt: prompt.prompt.trim(),
      negativePrompt: negativeOf(prompt),
      ...(image ? { image: imageRef(image) } : {}),
      ratio,
      imageModel: chosenModel,
      quality,
      count,
    }));

  return (
    <ToolLayout title={t('app:routes.textToImage')} tool="text-to-image" form={form} nav={<ImageToolSwitch />}>
      <ImageInput label={t('reference')} value={image} onChange={setImage} />
      <PromptFields value={prompt} onChange={setPrompt} />
      <Inspiration onPick={(sample) => setPrompt({ ...prompt, prompt: sample })} />
      <RatioChoice value={ratio} onChange={setRatio} />
      {offered.includes('v2') && (
        <Choice
          label={t('imageModel')}
          value={chosenModel}
          options={[
            { value: 'v1', label: t('modelName.v1') },
            { value: 'v2', label: t('modelName.v2') },
          ]}
          onChange={setModel}
        />
      )}
      <Choice
        label={t('quality')}
        value={quality}
        options={[
          { value: 'standard', label: t('qualityName.standard') },
          { value: 'high', label: t('qualityName.high') },
        ]}
        onChange={setQuality}
      />
      <CountChoice value={count} onChange={setCount} />
      <SubmitBar
        skuCode={chosenModel === 'v2' ? 'imageGenV2' : 'imageGen'}
        madeBy={image ? 'imageToImage' : 'textToImage'}
        count={count}
        problem={form.problem}
        submitting={form.submitting}
        onSubmit={submit}
      />
    </ToolLayout>
  );
}
