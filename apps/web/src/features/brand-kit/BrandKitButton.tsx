import { BgColorsOutlined } from '@ant-design/icons';
import { brandKitGet } from '@reelsmith/contract';
import { useQuery } from '@tanstack/react-query';
import { Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callQuery } from '../../shared/api/queries';
import { BrandKitPanel } from './BrandKitPanel';
import styles from './brandKit.module.css';

/** The way to the brand kit from an editor: a button showing the kit's two colours, opening the panel. */
export function BrandKitButton() {
  const { t } = useTranslation('brand-kit');
  const [open, setOpen] = useState(false);
  const kit = useQuery(callQuery(brandKitGet, { silent: true }));
  return (
    <>
      <Button block icon={<BgColorsOutlined />} onClick={() => setOpen(true)}>
        <span className={styles.entry}>
          {t('open')}
          {kit.data && (
            <>
              <span className={styles.swatch} style={{ background: kit.data.primaryColor }} />
              <span className={styles.swatch} style={{ background: kit.data.secondaryColor }} />
            </>
          )}
        </span>
      </Button>
      <BrandKitPanel open={open} onClose={() => setOpen(false)} />
    </>
  );
}
