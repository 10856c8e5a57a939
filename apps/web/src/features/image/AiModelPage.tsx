import { imageClothInfo, imageHumanInfo } from '@reelsmith/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Spin } from 'antd';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../shared/api/client';
import { callQuery } from '../../shared/api/queries';
import {
  Choice,
  type Count,
  CountChoice,
  ImageInput,
  imageRef,
  type PickedImage,
  type Preset,
  PresetTiles,
  SubmitBar,
  generationStyles as styles,
  ToolLayout,
  useGenerationForm,
} from '../generation';
import { ClothingGuide } from './ClothingGuide';
import { checkCloth, clothingPrecheck, clothProblem, limitsMessage } from './clothing';
import { ImageToolSwitch } from './imageTools';

type GarmentType = 'top' | 'bottom' | 'onePiece' | 'twoPieces';
const GARMENT_TYPES: GarmentType[] = ['top', 'bottom', 'onePiece', 'twoPieces'];
/** The pieces each garment type dresses; a one-piece (a dress) travels as the `top` of the request. */
type Slot = 'top' | 'bottom';
const SLOTS: Record<GarmentType, { slot: Slot; templates: Exclude<GarmentType, 'twoPieces'> }[]> = {
  top: [{ slot: 'top', templates: 'top' }],
  bottom: [{ slot: 'bottom', templates: 'bottom' }],
  onePiece: [{ slot: 'top', templates: 'onePiece' }],
  twoPieces: [
    { slot: 'top', templates: 'top' },
    { slot: 'bottom', templates: 'bottom' },
  ],
};

/** A chosen picture: a preset of the service (a model, an apparel template) or a file of the user's. */
type Chosen = { source: 'preset'; id: string; imageUrl: string } | { source: 'upload'; image: PickedImage };
/** A preset goes by its id (the service has its picture); the user's own picture by its stored file. */
const modelRefOf = (chosen: Chosen) => (chosen.source === 'preset' ? { modelId: chosen.id } : imageRef(chosen.image));
const garmentRefOf = (chosen: Chosen) => (chosen.source === 'preset' ? { templateId: chosen.id } : imageRef(chosen.image));
const presetOf = (preset: Preset): Chosen => ({ source: 'preset', id: preset.id, imageUrl: preset.imageUrl });

/** One garment to try on: an apparel template, or a picture of the user's checked in the browser and by the service. */
function GarmentPicker({
  label,
  templates,
  value,
  onChange,
  t,
}: {
  label: string;
  templates: Preset[];
  value: Chosen | null;
  onChange: (chosen: Chosen | null) => void;
  t: TFunction;
}) {
  const [problem, setProblem] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const takeUpload = async (image: PickedImage | null) => {
    setProblem(null);
    if (!image) return onChange(null);
    setChecking(true);
    try {
      const found = clothProblem(await checkCloth(image), t);
      setProblem(found);
      onChange(found ? null : { source: 'upload', image });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
    } finally {
      setChecking(false);
    }
  };
  return (
    <div className={styles.field}>
      <span className={styles.label}>{label}</span>
      <PresetTiles
        label={t('clothes.templates', { label })}
        presets={templates}
        chosen={value?.source === 'preset' ? value.id : null}
        onChoose={(preset) => {
          setProblem(null);
          onChange(presetOf(preset));
        }}
      />
      <Spin spinning={checking}>
        <ImageInput
          label={t('clothes.upload', { label })}
          value={value?.source === 'upload' ? value.image : null}
          onChange={takeUpload}
          precheck={clothingPrecheck(t)}
          onProblem={setProblem}
        />
      </Spin>
      {problem && <Alert type="warning" showIcon title={problem} />}
    </div>
  );
}

/** AI model try-on (spec "Screens and routes" screen 4): a model, the clothes, and how they are worn. */
export function AiModelPage() {
  const { t } = useTranslation(['image', 'generation', 'app']);
  const [garmentType, setGarmentType] = useState<GarmentType>('top');
  const [model, setModel] = useState<Chosen | null>(null);
  const [clothes, setClothes] = useState<Partial<Record<Slot, Chosen>>>({});
  const [count, setCount] = useState<Count>(1);
  const humans = useQuery({ ...callQuery(imageHumanInfo), staleTime: Infinity });
  const cloths = useQuery({ ...callQuery(imageClothInfo), staleTime: Infinity });
  const slots = SLOTS[garmentType];
  const templatesOf = (type: GarmentType): Preset[] =>
    (cloths.data ?? [])
      .filter((entry) => entry.garmentType === type)
      .map((entry) => ({ id: entry.templateId, name: entry.name, imageUrl: entry.imageUrl }));

  const changeType = (type: GarmentType) => {
    setGarmentType(type);
    // A dress chosen as a one-piece is no top: the pieces start afresh when the way they are worn changes.
    setClothes({});
  };
  const check = () => (model && slots.every(({ slot }) => clothes[slot]) ? null : t('generation:validation.modelAndClothesRequired'));
  const form = useGenerationForm(check);
  const submit = () =>
    form.submit('virtual-try-on', () => ({
      garmentType,
      model: modelRefOf(model as Chosen),
      ...Object.fromEntries(slots.map(({ slot }) => [slot, garmentRefOf(clothes[slot] as Chosen)])),
      count,
    }));

  return (
    <ToolLayout title={t('app:routes.aiModel')} tool="virtual-try-on" form={form} nav={<ImageToolSwitch />}>
      <Choice
        label={t('garmentType')}
        value={garmentType}
        options={GARMENT_TYPES.map((type) => ({ value: type, label: t(`garment.${type}`) }))}
        onChange={changeType}
      />
      <div className={styles.field}>
        <span className={styles.label}>{t('model.title')}</span>
        <PresetTiles
          label={t('model.presets')}
          presets={(humans.data ?? []).map((human) => ({ id: human.modelId, name: human.name, imageUrl: human.imageUrl }))}
          chosen={model?.source === 'preset' ? model.id : null}
          onChoose={(preset) => setModel(presetOf(preset))}
        />
        <ImageInput
          label={t('model.upload')}
          value={model?.source === 'upload' ? model.image : null}
          onChange={(image) => setModel(image ? { source: 'upload', image } : null)}
        />
      </div>
      <div className={styles.row}>
        <span className={styles.label}>{t('clothes.title')}</span>
        <ClothingGuide limits={limitsMessage(t)} />
      </div>
      {slots.map(({ slot, templates }) => (
        <GarmentPicker
          key={`${garmentType}:${slot}`}
          label={t(`garment.${garmentType === 'twoPieces' ? slot : garmentType}`)}
          templates={templatesOf(templates)}
          value={clothes[slot] ?? null}
          onChange={(chosen) => setClothes((all) => ({ ...all, [slot]: chosen ?? undefined }))}
          t={t}
        />
      ))}
      <CountChoice value={count} onChange={setCount} />
      <SubmitBar skuCode="imageTryOn" count={count} problem={form.problem} submitting={form.submitting} onSubmit={submit} />
    </ToolLayout>
  );
}
