import { Button, Checkbox, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Choice, Field, ImageInput, imageRef, type PickedImage, PresetTiles } from '../generation';
import { usePresenters, useRemovePresenter, useSavePresenter } from './presentersApi';

/** Who presents: a saved presenter (the catalogue's or the user's own), or a photo the user may use the face of. */
export type PresenterChoice = { presenterId: string } | { photo: PickedImage; consent: boolean } | null;

type Gender = 'female' | 'male';

/**
 * The Avatar tool's presenter (decision "Presenters"): the saved presenters as tiles, the user's own removable; or a
 * photo, with the user's statement that they may use the face, which they may keep as their own presenter.
 */
export function PresenterPicker({ value, onChange }: { value: PresenterChoice; onChange: (choice: PresenterChoice) => void }) {
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
        label={t('presenter')}
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
