import { Input, Segmented } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import styles from './generation.module.css';

/** A labelled field of a tool form; `id` ties the label to its control. */
export function Field({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        {label}
      </label>
      {children}
    </div>
  );
}

/** A labelled group of choices (segmented buttons), read out by its label. */
export function Choice<T extends string | number>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: T;
  options: { value: T; label: string }[];
  onChange: (value: T) => void;
}) {
  return (
    <fieldset className={styles.fieldset}>
      <legend className={styles.label}>{label}</legend>
      <Segmented<T> value={value} options={options} onChange={onChange} />
    </fieldset>
  );
}

export const RATIOS = ['9:16', '16:9', '1:1', '3:4', '4:3'] as const;
export type Ratio = (typeof RATIOS)[number];

export function RatioChoice({ value, onChange }: { value: Ratio; onChange: (ratio: Ratio) => void }) {
  const { t } = useTranslation('generation');
  return (
    <Choice label={t('fields.ratio')} value={value} options={RATIOS.map((ratio) => ({ value: ratio, label: ratio }))} onChange={onChange} />
  );
}

export const COUNTS = [1, 2, 3, 4] as const;
export type Count = (typeof COUNTS)[number];

export function CountChoice({ value, onChange }: { value: Count; onChange: (count: Count) => void }) {
  const { t } = useTranslation('generation');
  return (
    <Choice
      label={t('fields.count')}
      value={value}
      options={COUNTS.map((count) => ({ value: count, label: String(count) }))}
      onChange={onChange}
    />
  );
}

export interface PromptValue {
  prompt: string;
  negativePrompt: string;
}

/** A prompt's text area; `maxRows` is how far it grows before it scrolls. */
function PromptArea({
  id,
  label,
  placeholder,
  value,
  maxRows,
  onChange,
}: {
  id: string;
  label: string;
  placeholder: string;
  value: string;
  maxRows: number;
  onChange: (text: string) => void;
}) {
  return (
    <Field id={id} label={label}>
      <Input.TextArea
        id={id}
        value={value}
        maxLength={2000}
        autoSize={{ minRows: maxRows > 4 ? 3 : 1, maxRows }}
        placeholder={placeholder}
        onChange={(event) => onChange(event.target.value)}
      />
    </Field>
  );
}

/** The prompt and the optional negative prompt (spec "Entities" generation options). */
export function PromptFields({ value, onChange }: { value: PromptValue; onChange: (value: PromptValue) => void }) {
  const { t } = useTranslation('generation');
  return (
    <>
      <PromptArea
        id="prompt"
        label={t('fields.prompt')}
        placeholder={t('fields.promptPlaceholder')}
        value={value.prompt}
        maxRows={8}
        onChange={(prompt) => onChange({ ...value, prompt })}
      />
      <PromptArea
        id="negative-prompt"
        label={t('fields.negativePrompt')}
        placeholder={t('fields.negativePromptPlaceholder')}
        value={value.negativePrompt}
        maxRows={4}
        onChange={(negativePrompt) => onChange({ ...value, negativePrompt })}
      />
    </>
  );
}

/** The negative prompt as the contract takes it: left out when blank. */
export const negativeOf = (value: PromptValue) => (value.negativePrompt.trim() ? value.negativePrompt.trim() : undefined);
