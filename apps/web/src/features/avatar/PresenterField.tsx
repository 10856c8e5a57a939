import { Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type PresenterChoice, PresenterPicker } from './PresenterPicker';

/**
 * Choosing the presenter of a link-to-video ad (decision "Presenter in link to video"): none, a saved one, the
 * user's own photo or one made from a description. A photo waiting for its consent, or a description being made, is
 * held here until it is a saved presenter; only a saved presenter (or none) is chosen (`onChoose`).
 */
export function PresenterField({
  presenterId,
  onChoose,
  disabled = false,
}: {
  presenterId: string | null;
  onChoose: (presenterId: string | null) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation('avatar');
  const [pending, setPending] = useState<PresenterChoice>(null);
  const pick = (choice: PresenterChoice) => {
    if (choice && 'presenterId' in choice) {
      setPending(null);
      onChoose(choice.presenterId);
    } else setPending(choice);
  };
  return (
    <>
      <Button disabled={disabled || presenterId === null} onClick={() => onChoose(null)}>
        {t('field.none')}
      </Button>
      <PresenterPicker value={pending ?? (presenterId ? { presenterId } : null)} onChange={pick} photoLabel={t('field.mine')} />
    </>
  );
}
