import { ArrowLeftOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { PATHS } from '../../shared/paths';
import type { ToolModule } from './toolModule';

/**
 * Back goes through history when the visitor came from another page of the app (the router's first entry
 * has the key `default`) and always on image edit; otherwise it goes home rather than leaving the app.
 */
export function BackButton({ toolModule }: { toolModule: ToolModule }) {
  const { t } = useTranslation('shell');
  const navigate = useNavigate();
  const { key } = useLocation();
  const cameFromApp = key !== 'default';
  const back = () => (cameFromApp || toolModule === 'imageEdit' ? navigate(-1) : navigate(PATHS.home));
  return <Button type="text" icon={<ArrowLeftOutlined />} aria-label={t('header.back')} onClick={back} />;
}
