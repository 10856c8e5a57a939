import { useTranslation } from 'react-i18next';
import { PATHS } from '../../shared/paths';
import { ToolSwitch } from '../generation';

/** Text to image and the AI model try-on, one click apart. */
export function ImageToolSwitch() {
  const { t } = useTranslation(['image', 'app']);
  return (
    <ToolSwitch
      label={t('tools')}
      tools={[
        { path: PATHS.textToImage, label: t('app:routes.textToImage') },
        { path: PATHS.aiModel, label: t('app:routes.aiModel') },
      ]}
    />
  );
}
