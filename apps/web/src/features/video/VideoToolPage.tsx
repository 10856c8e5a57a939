import { type SkuCode, videoModels } from '@reelsmith/contract';
import { cameraMovesOf } from '@reelsmith/contract/camera-prompt';
import { useQuery } from '@tanstack/react-query';
import { Alert, Select, Switch } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callQuery } from '../../shared/api/queries';
import { PATHS } from '../../shared/paths';
import {
  Choice,
  type Count,
  CountChoice,
  Field,
  ImageInput,
  imageRef,
  negativeOf,
  type PickedImage,
  PromptFields,
  type PromptValue,
  type Ratio,
  RatioChoice,
  SubmitBar,
  ToolLayout,
  ToolSwitch,
  useGenerationForm,
} from '../generation';

type Mode = 'text' | 'image';
type Tier = 'std' | 'pro';
type Duration = 5 | 10;
type Engine = 'local' | 'vendor';

/**
 * The SKU of a video (spec "Entities"): tool, tier and length; an image to video made by the server's own engine
 * has its own, lower price (decision "Image-to-video price"), so the price shown is the one charged.
 */
export const videoSku = (mode: Mode, tier: Tier, duration: Duration, engine: Engine): SkuCode =>
  `${mode === 'text' ? 't2Video' : engine === 'local' ? 'img2VideoLocal' : 'img2Video'}_${tier}_${duration}s`;

/** Text to video and image to video (spec "Screens and routes" screen 4): the same options, image to video starting from a picture. */
function VideoToolPage({ mode }: { mode: Mode }) {
  const { t } = useTranslation(['video', 'generation', 'app']);
  const [prompt, setPrompt] = useState<PromptValue>({ prompt: '', negativePrompt: '' });
  const [image, setImage] = useState<PickedImage | null>(null);
  const [duration, setDuration] = useState<Duration>(5);
  const [ratio, setRatio] = useState<Ratio>('9:16');
  const [tier, setTier] = useState<Tier>('std');
  const [model, setModel] = useState<string | undefined>(undefined);
  const [soundEffect, setSoundEffect] = useState(false);
  const [count, setCount] = useState<Count>(1);
  const models = useQuery(callQuery(videoModels, { query: { mode } }));
  const offered = (models.data ?? []).filter((entry) => entry.tiers.includes(tier) && entry.durations.includes(duration));
  // Which engine makes the video is the server's to say; until it has, the price is not known. A server with no
  // model answers none: the tool is unavailable there and says so on submit, charging nothing.
  const engine: Engine | undefined = models.isPending ? undefined : (models.data?.[0]?.engine ?? 'vendor');

  // Reelsmith motion moves a camera over the picture and makes nothing else a prompt may ask for (light, sparkle):
  // said before paying, with whether the prompt names a move it follows (decision "Prompted camera moves").
  const chosen = offered.find((entry) => entry.modelId === model) ?? models.data?.[0];
  const cameraOnly = mode === 'image' && chosen?.engine === 'local' && prompt.prompt.trim() !== '';
  const followsPrompt = cameraOnly && cameraMovesOf(prompt.prompt).length > 0;

  const check = () => {
    if (mode === 'image' && !image) return t('generation:validation.imageRequired');
    if (mode === 'text' && !prompt.prompt.trim()) return t('generation:validation.promptEmpty');
    return null;
  };
  const form = useGenerationForm(check);
  const common = {
    negativePrompt: negativeOf(prompt),
    duration,
    tier,
    videoModel: offered.some((entry) => entry.modelId === model) ? model : undefined,
    soundEffect,
    count,
  };
  const submit = () =>
    mode === 'text'
      ? form.submit('text-to-video', () => ({ ...common, prompt: prompt.prompt.trim(), ratio }))
      : form.submit('image-to-video', () => ({
          ...common,
          image: imageRef(image as PickedImage),
          prompt: prompt.prompt.trim() || undefined,
        }));

  return (
    <ToolLayout
      title={t(mode === 'text' ? 'app:routes.textToVideo' : 'app:routes.imageToVideo')}
      tool={mode === 'text' ? 'text-to-video' : 'image-to-video'}
      form={form}
      nav={
        <ToolSwitch
          label={t('tools')}
          tools={[
            { path: PATHS.textToVideo, label: t('app:routes.textToVideo') },
            { path: PATHS.imageToVideo, label: t('app:routes.imageToVideo') },
          ]}
        />
      }
    >
      {mode === 'image' && <ImageInput label={t('image')} value={image} onChange={setImage} />}
      <PromptFields value={prompt} onChange={setPrompt} />
      {cameraOnly && (
        <Alert
          type={followsPrompt ? 'info' : 'warning'}
          showIcon
          title={t(followsPrompt ? 'cameraOnly.follows' : 'cameraOnly.noMove')}
          description={t('cameraOnly.what')}
        />
      )}
      <Choice
        label={t('duration')}
        value={duration}
        options={[5, 10].map((seconds) => ({ value: seconds as Duration, label: t('seconds', { seconds }) }))}
        onChange={setDuration}
      />
      {mode === 'text' && <RatioChoice value={ratio} onChange={setRatio} />}
      <Choice
        label={t('quality')}
        value={tier}
        options={[
          { value: 'std', label: t('tier.std') },
          { value: 'pro', label: t('tier.pro') },
        ]}
        onChange={setTier}
      />
      <Field id="video-model" label={t('model')}>
        <Select
          id="video-model"
          // The model that will make the video is shown by its name, the server's first until another is chosen.
          value={offered.some((entry) => entry.modelId === model) ? model : offered[0]?.modelId}
          placeholder={t('modelNone')}
          loading={models.isPending}
          // The built-in engine has no vendor model name to show: it is named in the user's language.
          options={offered.map((entry) => ({ value: entry.modelId, label: entry.engine === 'local' ? t('modelLocal') : entry.name }))}
          onChange={setModel}
        />
      </Field>
      <div>
        <Switch id="sound-effect" checked={soundEffect} onChange={setSoundEffect} />{' '}
        <label htmlFor="sound-effect">{t('soundEffect')}</label>
      </div>
      <CountChoice value={count} onChange={setCount} />
      <SubmitBar
        skuCode={engine && videoSku(mode, tier, duration, engine)}
        count={count}
        problem={form.problem}
        submitting={form.submitting}
        onSubmit={submit}
      />
    </ToolLayout>
  );
}

export const TextToVideoPage = () => <VideoToolPage mode="text" />;
export const ImageToVideoPage = () => <VideoToolPage mode="image" />;
