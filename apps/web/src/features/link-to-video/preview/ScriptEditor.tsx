import { Button, Input } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { debounce } from 'throttle-debounce';
import { toast } from '../../../shared/ui/toast';
import styles from '../flow.module.css';
import { projectController } from '../project/open';
import { joinScript, type Segment, splitScript } from '../project/script';

/** Typing is kept this long after the last key before the draft takes it. */
const AUTOSAVE_DELAY_MS = 600;

/**
 * The edited video's script, one line a segment. The text stays as typed (blank lines and all) while the
 * draft keeps its segments; Update re-renders the video with it (spec "States and transitions" script update).
 */
export function ScriptEditor({ segments, updating }: { segments: Segment[]; updating: boolean }) {
  const { t } = useTranslation('link-to-video');
  const [text, setText] = useState(() => joinScript(segments));
  const [autosave] = useState(() => debounce(AUTOSAVE_DELAY_MS, (text: string) => projectController()?.saveEditedScript(text)));
  const [submitting, setSubmitting] = useState(false);
  useEffect(() => () => autosave.cancel({ upcomingOnly: false }), [autosave]);

  const update = async () => {
    const edited = splitScript(text);
    if (edited.length === 0) {
      toast.error(t('editor.scriptRequired'));
      return;
    }
    autosave.cancel();
    projectController()?.saveEditedScript(text);
    setSubmitting(true);
    await projectController()
      ?.submitScriptUpdate(edited)
      .catch(() => undefined);
    setSubmitting(false);
  };

  return (
    <section className={styles.panel} aria-labelledby="script-editor-title">
      <h3 id="script-editor-title" className={styles.panelTitle}>
        {t('editor.script')}
      </h3>
      <Input.TextArea
        aria-labelledby="script-editor-title"
        autoSize={{ minRows: 5, maxRows: 14 }}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          autosave(event.target.value);
        }}
      />
      <Button type="primary" loading={submitting || updating} onClick={update}>
        {t('editor.update')}
      </Button>
    </section>
  );
}
