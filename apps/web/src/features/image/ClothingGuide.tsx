import { Button, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

const TIPS = ['flat', 'background', 'single', 'whole', 'limits'] as const;

/** The guideline modal: what makes a clothing picture the try-on can use (spec "Screens and routes" screen 4, "Validation rules"). */
export function ClothingGuide({ limits }: { limits: string }) {
  const { t } = useTranslation('image');
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button type="link" onClick={() => setOpen(true)}>
        {t('guide.open')}
      </Button>
      <Modal
        open={open}
        title={t('guide.title')}
        onCancel={() => setOpen(false)}
        onOk={() => setOpen(false)}
        okText={t('guide.ok')}
        cancelButtonProps={{ hidden: true }}
      >
        <ul>
          {TIPS.map((tip) => (
            <li key={tip}>{tip === 'limits' ? limits : t(`guide.tips.${tip}`)}</li>
          ))}
        </ul>
      </Modal>
    </>
  );
}
