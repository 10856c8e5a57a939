import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * Says in words that the sandbox's free stand-in made a result, not a real AI model, wherever the result is shown
 * (the library, its pickers, a tool's history); the SANDBOX mark on the picture alone is easy to miss (decision
 * "Stand-ins are free"). The title explains the word.
 */
export function StandInTag({ className }: { className?: string }) {
  const { t } = useTranslation('library');
  return (
    <Tag className={className} color="warning" title={t('standIn.tip')}>
      {t('standIn.tag')}
    </Tag>
  );
}
