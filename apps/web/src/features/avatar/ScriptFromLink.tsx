import { HttpUrl, type Locale } from '@reelsmith/contract';
import { Button, Input, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Field } from '../generation';
import { useScriptFromLink } from './scriptApi';

/**
 * "Write it from a product link" (decision "The Avatar tool"): the product page is read and a script written for the
 * presenter in the chosen language, free, into the script box for the user to edit. The service's refusals (no
 * product on the page, a page that cannot be reached) are shown by the API client.
 */
export function ScriptFromLink({ language, onWritten }: { language: Locale; onWritten: (script: string, language: Locale) => void }) {
  const { t } = useTranslation('avatar');
  const [link, setLink] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const write = useScriptFromLink();
  const submit = () => {
    const productLink = link.trim();
    if (!HttpUrl.safeParse(productLink).success) {
      setProblem(t('fromLink.invalid'));
      return;
    }
    setProblem(null);
    write.mutate({ productLink, language }, { onSuccess: (written) => onWritten(written.script, written.language) });
  };
  return (
    <Field id="avatar-script-link" label={t('fromLink.label')}>
      <Space.Compact block>
        <Input
          id="avatar-script-link"
          type="url"
          value={link}
          placeholder={t('fromLink.placeholder')}
          status={problem ? 'error' : undefined}
          onChange={(event) => setLink(event.target.value)}
          onPressEnter={submit}
        />
        <Button loading={write.isPending} onClick={submit}>
          {t('fromLink.write')}
        </Button>
      </Space.Compact>
      {problem && (
        <Typography.Text type="danger" role="alert">
          {problem}
        </Typography.Text>
      )}
    </Field>
  );
}
