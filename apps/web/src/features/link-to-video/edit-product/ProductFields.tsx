import { Input } from 'antd';
import { useTranslation } from 'react-i18next';
import styles from '../flow.module.css';
import { projectController } from '../project/open';
import type { Product } from '../project/types';
import { OfferFields } from './OfferFields';

/** The product's name, description, price and brand, as the analysis found them and the user corrects them. */
export function ProductFields({ product }: { product: Product }) {
  const { t } = useTranslation('link-to-video');
  return (
    <section className={styles.panel} aria-labelledby="product-title">
      <h2 id="product-title" className={styles.panelTitle}>
        {t('product.title')}
      </h2>
      <label className={styles.hint} htmlFor="product-name">
        {t('product.nameLabel')}
      </label>
      <Input
        id="product-name"
        maxLength={500}
        value={product.productName}
        onChange={(event) => projectController()?.patchProduct({ productName: event.target.value })}
        // The project named after the product follows its new name once the user leaves the field, not per keystroke.
        onBlur={(event) => void projectController()?.productNameSettled(event.target.value)}
      />
      <label className={styles.hint} htmlFor="product-description">
        {t('product.descriptionLabel')}
      </label>
      <Input.TextArea
        id="product-description"
        autoSize={{ minRows: 4, maxRows: 10 }}
        maxLength={10_000}
        value={product.productDescription}
        onChange={(event) => projectController()?.patchProduct({ productDescription: event.target.value })}
      />
      <OfferFields product={product} />
    </section>
  );
}
