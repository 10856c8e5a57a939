import { HttpUrl } from '@reelsmith/contract';
import { Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { type FieldCheck, FieldForm } from './FieldForm';

/** Asks for the address of an image or video to import; it closes once the service has taken it. */
export function ImportUrlModal({
  open,
  onImport,
  onClose,
}: {
  open: boolean;
  onImport: (url: string) => Promise<void>;
  onClose: () => void;
}) {
  const { t } = useTranslation('assets');
  const check = (text: string): FieldCheck => {
    const parsed = HttpUrl.safeParse(text.trim());
    return parsed.success ? { value: parsed.data } : { error: t('import.invalid') };
  };
  return (
    <Modal open={open} title={t('import.title')} footer={null} onCancel={onClose} destroyOnHidden>
      <FieldForm
        id="import-url"
        label={t('import.label')}
        submitLabel={t('import.submit')}
        check={check}
        onSubmit={onImport}
        onClose={onClose}
        inputProps={{ type: 'url', placeholder: 'https://' }}
        hint={t('import.hint')}
      />
    </Modal>
  );
}
