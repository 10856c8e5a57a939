import { Button, Input, type InputProps, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import styles from './assets.module.css';

/** What to do with the field's text: send this value, show this error, or close with nothing to send. */
export type FieldCheck = { value: string } | { error: string } | null;

interface FieldFormProps {
  id: string;
  label: string;
  initial?: string;
  submitLabel: string;
  check: (text: string) => FieldCheck;
  /** Rejects when the service refused (already said): the form stays open to try again. */
  onSubmit: (value: string) => Promise<void>;
  onClose: () => void;
  inputProps?: InputProps;
  hint?: ReactNode;
}

/** The one-field form of the library's dialogs (rename, import from a URL): checked before it is sent, busy while it is. */
export function FieldForm({ id, label, initial = '', submitLabel, check, onSubmit, onClose, inputProps, hint }: FieldFormProps) {
  const { t } = useTranslation('assets');
  const [text, setText] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const errorId = `${id}-error`;

  const submit = async () => {
    const checked = check(text);
    if (checked === null) return onClose();
    if ('error' in checked) return setError(checked.error);
    setSending(true);
    try {
      await onSubmit(checked.value);
      onClose();
    } catch {
      setSending(false);
    }
  };

  return (
    // The form checks its field itself, in the page's language and words.
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <label htmlFor={id} className={styles.label}>
        {label}
      </label>
      <Input
        {...inputProps}
        id={id}
        autoFocus
        value={text}
        status={error ? 'error' : undefined}
        aria-invalid={error !== null}
        aria-describedby={error ? errorId : undefined}
        onChange={(event) => {
          setText(event.target.value);
          setError(null);
        }}
      />
      {error && (
        <Typography.Text id={errorId} type="danger" role="alert">
          {error}
        </Typography.Text>
      )}
      {hint && <p className={styles.hint}>{hint}</p>}
      <div className={styles.formButtons}>
        <Button onClick={onClose}>{t('form.cancel')}</Button>
        <Button type="primary" htmlType="submit" loading={sending}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
