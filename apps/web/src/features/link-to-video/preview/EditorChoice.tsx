import { Radio } from 'antd';
import type { ReactNode } from 'react';
import { Busy } from '../../../shared/ui/Busy';
import styles from '../flow.module.css';
import { projectController } from '../project/open';
import type { Project } from '../project/types';

export interface Choice {
  value: string;
  /** The accessible name, when the content alone does not give one (a picture). */
  label?: string;
  content: ReactNode;
}

/**
 * One choice of the quick editor (voice, music, subtitle style): a titled panel of buttons, the catalogue's
 * spinner while it loads, and the choice written into the editor config, which autosaves. `children` are the
 * filters shown above the buttons.
 */
export function EditorChoice({
  field,
  title,
  value,
  choices,
  loading,
  children,
}: {
  field: keyof Project['editorConfig'] & `${string}Id`;
  title: string;
  value: string | undefined;
  choices: Choice[];
  loading: boolean;
  children?: ReactNode;
}) {
  const titleId = `${field}-title`;
  return (
    <section className={styles.panel} aria-labelledby={titleId}>
      <h3 id={titleId} className={styles.panelTitle}>
        {title}
      </h3>
      {children}
      {loading && <Busy compact />}
      <Radio.Group
        value={value}
        onChange={(event) => projectController()?.patchEditorConfig({ [field]: event.target.value as string })}
        className={styles.choices}
      >
        {choices.map((choice) => (
          <Radio.Button key={choice.value} value={choice.value} aria-label={choice.label}>
            {choice.content}
          </Radio.Button>
        ))}
      </Radio.Group>
    </section>
  );
}
