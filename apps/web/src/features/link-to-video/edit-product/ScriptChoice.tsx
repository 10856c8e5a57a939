import { Input, Radio } from 'antd';
import { useTranslation } from 'react-i18next';
import styles from '../flow.module.css';
import { projectController } from '../project/open';
import type { Product, ScriptSource } from '../project/types';

const SOURCES: ScriptSource[] = ['description', 'own', 'ai'];

/** Where the script comes from (spec "Screens and routes" screen 3): the product description, the user's own text, or AI. */
export function ScriptChoice({ product }: { product: Product }) {
  const { t } = useTranslation('link-to-video');
  return (
    <section className={styles.panel} aria-labelledby="script-title">
      <h2 id="script-title" className={styles.panelTitle}>
        {t('script.title')}
      </h2>
      <Radio.Group
        value={product.scriptSource}
        onChange={(event) => projectController()?.patchProduct({ scriptSource: event.target.value as ScriptSource })}
        options={SOURCES.map((source) => ({ value: source, label: t(`script.${source}`) }))}
      />
      {product.scriptSource === 'own' && (
        <Input.TextArea
          aria-label={t('script.own')}
          autoSize={{ minRows: 4, maxRows: 12 }}
          maxLength={10_000}
          placeholder={t('script.ownPlaceholder')}
          value={product.diyScriptContent}
          onChange={(event) => projectController()?.patchProduct({ diyScriptContent: event.target.value })}
        />
      )}
    </section>
  );
}
