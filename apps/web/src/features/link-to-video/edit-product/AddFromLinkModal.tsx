import { HttpUrl } from '@reelsmith/contract';
import { Input, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { projectController } from '../project/open';

/** Imports an image or video from a link; it shows at once and becomes a stored file when the import ends. */
export function AddFromLinkModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('link-to-video');
  const [url, setUrl] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const add = () => {
    const parsed = HttpUrl.safeParse(url.trim());
    if (!parsed.success) {
      setProblem(t('product.invalidLink'));
      return;
    }
    projectController()?.importAssetFromUrl(parsed.data);
    setUrl('');
    onClose();
  };

  return (
    <Modal open={open} title={t('product.linkTitle')} okText={t('product.add')} onOk={add} onCancel={onClose} destroyOnHidden>
      <Input
        autoFocus
        aria-label={t('product.linkTitle')}
        placeholder={t('product.linkPlaceholder')}
        status={problem ? 'error' : undefined}
        value={url}
        onChange={(event) => {
          setUrl(event.target.value);
          setProblem(null);
        }}
        onPressEnter={add}
      />
      {problem && <p role="alert">{problem}</p>}
    </Modal>
  );
}
