import { MenuOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { lazyNamed } from '../../shared/lazyNamed';

// The drawer's code comes with the first tap, not with every phone page (decision "First-load bundle split").
const NavDrawerPanel = lazyNamed(() => import('./NavDrawerPanel'), 'NavDrawerPanel');

/**
 * On narrow screens the header's menu button, opening the main navigation in a drawer from the left
 * (decision "Phone layout"). The drawer belongs to the page it was opened on: going to another page closes it.
 */
export function NavDrawer() {
  const { t } = useTranslation('shell');
  const { pathname } = useLocation();
  const [openOn, setOpenOn] = useState<string | null>(null);
  const [loaded, setLoaded] = useState(false);
  const open = openOn === pathname;
  const show = () => {
    setLoaded(true);
    setOpenOn(pathname);
  };
  return (
    <>
      <Button type="text" icon={<MenuOutlined />} aria-label={t('nav.open')} aria-expanded={open} onClick={show} />
      {loaded && (
        <Suspense>
          <NavDrawerPanel open={open} onClose={() => setOpenOn(null)} />
        </Suspense>
      )}
    </>
  );
}
