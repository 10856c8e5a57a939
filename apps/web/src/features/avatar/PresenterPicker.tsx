import { Alert, Button, Checkbox, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useTaskRun } from '../../shared/polling/useTaskRun';
import { Choice, Field, ImageInput, imageRef, type PickedImage, PresetTiles, submitGeneration, usePricedAction } from '../generation';
import { usePresenters, useRemovePresenter, useSavePresenter } from './presentersApi';

/** Who presents: a saved presenter (the catalogue's or the user's own), or a photo the user may use the face of. */
export type PresenterChoice = { presenterId: string } | { photo: PickedImage; consent: boolean } | null;

type Gender = 'female' | 'male';

/**
 * The Avatar tool's presenter (decision "Presenters"): the saved presenters as tiles, the user's own removable; or a
 * photo, with the user's statement that they may use the face, which they may keep as their own presenter.
 */
export function PresenterPicker({
  value,
  onChange,
  photoLabel,
}: {
  value: PresenterChoice;
  onChange: (choice: PresenterChoice) => void;
  /** What the photo field is called where "Presenter" already heads the choice. */
  photoLabel?: string;
}) {
  const { t } = useTranslation('avatar');
  const presenters = usePresenters();
  const save = useSavePresenter();
  const remove = useRemovePresenter();
  const [name, setName] = useState('');
  const [gender, setGender] = useState<Gender>('female');
  const photo = value && 'photo' in value ? value : null;
  const chosen = value && 'presenterId' in value ? value.presenterId : null;
  const tiles = (presenters.data ?? []).map((p) => ({
    id: p.presenterId,
    name: p.name,
    imageUrl: p.imageUrl,
    removable: p.source === 'own',
  }));

  const keep = async () => {
    if (!photo) return;
    const saved = await save.mutateAsync({ ...imageRef(photo.photo), name: name.trim(), gender, consent: true });
    onChange({ presenterId: saved.presenterId });
    setName('');
  };

  return (
    <>
      <ImageInput
        label={photoLabel ?? t('presenter')}
        value={photo?.photo ?? null}
        onChange={(picked) => onChange(picked ? { photo: picked, consent: false } : null)}
      />
      <Typography.Text type="secondary">{t('presenterHint')}</Typography.Text>
      {photo && (
        <Checkbox checked={photo.consent} onChange={(event) => onChange({ ...photo, consent: event.target.checked })}>
          {t('consent')}
        </Checkbox>
      )}
      {photo?.consent && (
        <>
          <Field id="avatar-presenter-name" label={t('keep.name')}>
            <Input id="avatar-presenter-name" value={name} maxLength={60} onChange={(event) => setName(event.target.value)} />
          </Field>
          <Choice
            label={t('keep.gender')}
            value={gender}
            options={[
              { value: 'female' as const, label: t('keep.female') },
              { value: 'male' as const, label: t('keep.male') },
            ]}
            onChange={setGender}
          />
          <Button onClick={keep} disabled={!name.trim()} loading={save.isPending}>
            {t('keep.save')}
          </Button>
        </>
      )}
      <MakePresenter onMade={(made) => onChange({ photo: made, consent: false })} />
      {tiles.length > 0 && (
        <Field id="avatar-presenters" label={t('saved')}>
          <PresetTiles
            label={t('saved')}
            presets={tiles}
            chosen={chosen}
            onChoose={(preset) => onChange({ presenterId: preset.id })}
            onRemove={{
              label: (preset) => t('remove', { name: preset.name }),
              remove: (preset) => {
                remove.mutate(preset.id);
                if (preset.id === chosen) onChange(null);
              },
            }}
          />
        </Field>
      )}
    </>
  );
}

/** A presenter described in words is a portrait: head and shoulders, looking at the camera, as the face check asks. */
export const portraitPrompt = (description: string) =>
  `Head-and-shoulders portrait photo of ${description.trim()}, one person looking straight at the camera, soft studio light, plain background`;

/**
 * A presenter made from a description (decision "Presenters"): a text-to-image generation, charged at its price and
 * kept in the user's library like any; the picture it makes becomes the photo, to be consented to and kept.
 */
function MakePresenter({ onMade }: { onMade: (picture: PickedImage) => void }) {
  const { t } = useTranslation(['avatar', 'generation']);
  const [description, setDescription] = useState('');
  const [failed, setFailed] = useState<string | null>(null);
  const makeLabel = usePricedAction('imageGen', t('make.button'), (credits) => t('make.buttonPrice', { credits }));
  // The made picture becomes the photo once, when its task ends.
  const task = useTaskRun('text-to-image', (answer) => {
    const image = answer.images?.[0];
    if (answer.status === 'SUCCESS' && image) {
      const name = `${description.trim().slice(0, 40)}.png`;
      onMade({ fileId: image.resKey, name, resKey: image.resKey, url: image.url, width: null, height: null });
    } else setFailed(answer.error ? (JSON.parse(answer.error) as { message: string }).message : t('make.failed'));
  });

  const make = async () => {
    setFailed(null);
    const prompt = portraitPrompt(description);
    task.follow(await submitGeneration('text-to-image', { prompt, ratio: '3:4', count: 1, imageModel: 'v1', quality: 'standard' }));
  };

  return (
    <Field id="avatar-make" label={t('make.label')}>
      <Input.Search
        id="avatar-make"
        value={description}
        maxLength={300}
        placeholder={t('make.placeholder')}
        enterButton={makeLabel}
        loading={task.running}
        onChange={(event) => setDescription(event.target.value)}
        onSearch={() => description.trim() && !task.running && void make().catch(() => undefined)}
      />
      {task.running && <Typography.Text type="secondary">{t('make.making')}</Typography.Text>}
      {failed && <Alert type="error" showIcon title={failed} />}
    </Field>
  );
}
