import type { GenerationCapability, GenerationTool, SkuCode } from '@reelsmith/contract';
import { Alert, Button } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { GenerationHistory, type HistoryScope } from './GenerationHistory';
import styles from './generation.module.css';
import { PriceTag, StandInNotice, useSkuQuote } from './price';
import { ShortOfCredits, useShortfall } from './shortfall';

interface ToolLayoutProps {
  title: string;
  /**
   * The tool whose history shows beside the form; a tool of several modes (AI background: remove or replace)
   * names them all, each with the label its records carry, so a result made in one mode stays in view in the other.
   */
  tool: GenerationTool | HistoryScope;
  /** The form's submits: the history remounts after each, so the new task shows first, brought into view. */
  form: { runs: number; newTaskId: string | null };
  children: ReactNode;
  /** Tabs or switches above the form (image edit). */
  nav?: ReactNode;
}

/** A generation tool: its form on the left, its history beside it (spec "Screens and routes" screen 4). */
export function ToolLayout({ title, tool, form, nav, children }: ToolLayoutProps) {
  const scope: HistoryScope = typeof tool === 'string' ? { [tool]: null } : tool;
  return (
    <div className={styles.tool}>
      <section className={styles.form} aria-labelledby="tool-title">
        <h1 id="tool-title" className={styles.title}>
          {title}
        </h1>
        {nav}
        {children}
      </section>
      <GenerationHistory key={`${Object.keys(scope).join()}:${form.runs}`} scope={scope} newTaskId={form.newTaskId} />
    </div>
  );
}

interface SubmitBarProps {
  /** Undefined while it is not known yet: the price shows as loading. */
  skuCode: SkuCode | undefined;
  count?: number;
  problem: string | null;
  submitting: boolean;
  onSubmit: () => void;
  /** Whether the bar says so when a stand-in does the work; a page that says it its own way turns it off. */
  standInNotice?: boolean;
  /** Which work the SKU pays for, where it covers two (a picture drawn, or edited from a reference). */
  madeBy?: GenerationCapability;
}

/**
 * The foot of a tool form: what is wrong with it, what it will cost, and the generate button. It sticks to the
 * bottom of the window while the form is taller than the screen, so Generate and its price are always in view.
 */
export function SubmitBar({ skuCode, count = 1, problem, submitting, onSubmit, standInNotice = true, madeBy }: SubmitBarProps) {
  const { t } = useTranslation('generation');
  const quote = useSkuQuote(skuCode, madeBy);
  // The balance is checked before anything is sent (decision "Short of credits"): a submit it cannot cover is not offered.
  const missing = useShortfall(quote && (quote.standIn ? 0 : quote.price * count));
  return (
    <>
      {/* Above the bar, not in it: on a phone a sticky notice would cover a fifth of the screen. */}
      {standInNotice && <StandInNotice skuCode={skuCode} madeBy={madeBy} />}
      <div className={styles.submitBar} data-testid="submit-bar">
        {problem && <Alert type="error" showIcon title={problem} />}
        {/* In the bar: the reason Generate is off stays in view beside it. */}
        <ShortOfCredits missing={missing} compact />
        <div className={styles.submitRow}>
          <PriceTag skuCode={skuCode} count={count} madeBy={madeBy} />
          <Button type="primary" size="large" loading={submitting} disabled={missing > 0} onClick={onSubmit}>
            {t('generate')}
          </Button>
        </div>
      </div>
    </>
  );
}
