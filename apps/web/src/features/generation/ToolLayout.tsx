import type { GenerationTool, SkuCode } from '@reelsmith/contract';
import { Alert, Button } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { GenerationHistory } from './GenerationHistory';
import styles from './generation.module.css';
import { PriceTag } from './price';

interface ToolLayoutProps {
  title: string;
  tool: GenerationTool;
  /** Submits so far: the history remounts after each, so the new task shows first. */
  runs: number;
  children: ReactNode;
  /** Tabs or switches above the form (image edit). */
  nav?: ReactNode;
}

/** A generation tool: its form on the left, its history beside it (spec "Screens and routes" screen 4). */
export function ToolLayout({ title, tool, runs, nav, children }: ToolLayoutProps) {
  return (
    <div className={styles.tool}>
      <section className={styles.form} aria-labelledby="tool-title">
        <h1 id="tool-title" className={styles.title}>
          {title}
        </h1>
        {nav}
        {children}
      </section>
      <GenerationHistory key={`${tool}:${runs}`} tool={tool} />
    </div>
  );
}

interface SubmitBarProps {
  skuCode: SkuCode;
  count?: number;
  problem: string | null;
  submitting: boolean;
  onSubmit: () => void;
}

/** The foot of a tool form: what is wrong with it, what it will cost, and the generate button. */
export function SubmitBar({ skuCode, count = 1, problem, submitting, onSubmit }: SubmitBarProps) {
  const { t } = useTranslation('generation');
  return (
    <div className={styles.submitBar}>
      {problem && <Alert type="error" showIcon title={problem} />}
      <div className={styles.submitRow}>
        <PriceTag skuCode={skuCode} count={count} />
        <Button type="primary" size="large" loading={submitting} onClick={onSubmit}>
          {t('generate')}
        </Button>
      </div>
    </div>
  );
}
