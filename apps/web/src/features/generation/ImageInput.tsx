import { FolderOpenOutlined, UploadOutlined } from '@ant-design/icons';
import { Button, Spin } from 'antd';
import { type ChangeEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../shared/api/client';
import { LibraryPickerModal } from '../../shared/library/LibraryPickerModal';
import { RemoveButton } from '../../shared/ui/RemoveButton';
import styles from './generation.module.css';
import { fromAsset, type PickedImage, uploadImage } from './pickedImage';

interface ImageInputProps {
  /** The field's name, read out and shown above it. */
  label: string;
  value: PickedImage | null;
  onChange: (image: PickedImage | null) => void;
  /** A check of the file in the browser before it is uploaded: a message to show, or null when it fits. */
  precheck?: (file: File) => Promise<string | null>;
  /** Told when the upload is refused by `precheck`, or the file is taken. */
  onProblem?: (message: string | null) => void;
}

/** A picture for a tool: uploaded from the computer or chosen from the assets library, shown once chosen. */
export function ImageInput({ label, value, onChange, precheck, onProblem }: ImageInputProps) {
  const { t } = useTranslation('generation');
  const input = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);
  const [picking, setPicking] = useState(false);

  const upload = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const problem = precheck ? await precheck(file) : null;
    onProblem?.(problem);
    if (problem) return;
    setUploading(true);
    try {
      onChange(await uploadImage(file));
    } catch (error) {
      // The API client has shown the refusal; anything else is a bug to surface.
      if (!(error instanceof ApiError)) throw error;
    } finally {
      setUploading(false);
    }
  };

  return (
    <fieldset className={styles.imageInput} aria-label={label}>
      <legend className={styles.label}>{label}</legend>
      {value ? (
        <div className={styles.picked}>
          <img src={value.url} alt={value.name} />
          <RemoveButton className={styles.pickedRemove} label={t('image.remove', { name: value.name })} onRemove={() => onChange(null)} />
        </div>
      ) : (
        <div className={styles.imageButtons}>
          <Spin spinning={uploading}>
            <Button icon={<UploadOutlined />} onClick={() => input.current?.click()} disabled={uploading}>
              {t('image.upload')}
            </Button>
          </Spin>
          <Button icon={<FolderOpenOutlined />} onClick={() => setPicking(true)}>
            {t('image.library')}
          </Button>
        </div>
      )}
      <input
        ref={input}
        type="file"
        accept="image/png,image/jpeg,image/webp"
        hidden
        aria-label={t('image.fileInput', { label })}
        onChange={upload}
      />
      {picking && (
        <LibraryPickerModal
          type="image"
          okText={t('image.use')}
          onPick={([asset]) => asset && onChange(fromAsset(asset))}
          onClose={() => setPicking(false)}
        />
      )}
    </fieldset>
  );
}
