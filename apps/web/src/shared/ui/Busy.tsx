import { Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import styles from './ui.module.css';

/** A spinner with a line saying what is happening, announced to screen readers; compact sits in a line of text. */
export function Busy({ text, compact = false }: { text?: string; compact?: boolean }) {
  const { t } = useTranslation('shared');
  return (
    <div className={compact ? styles.busyCompact : styles.busy} role="status" aria-live="polite">
      <Spin size={compact ? 'small' : undefined} />
      <span>{text ?? t('loading')}</span>
    </div>
  );
}
