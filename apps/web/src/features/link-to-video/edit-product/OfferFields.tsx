import { Input, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import styles from '../flow.module.css';
import { currencyChoices, type OfferField, offerOf } from '../project/offer';
import { projectController } from '../project/open';
import type { Product } from '../project/types';

/** Brands are short; the contract takes up to 200 characters. */
const BRAND_LENGTH = 200;
const AMOUNT_LENGTH = 15;

/**
 * An amount as the reader writes it: Portuguese puts a comma before the cents, where the analysis stores a point
 * ("59.90" shows as "59,90"). What the user types is kept as typed; both marks are read as the decimal one.
 */
export const shownAmount = (value: string, language: string) =>
  language === 'pt' && /^\d+\.\d{1,2}$/.test(value) ? value.replace('.', ',') : value;

/** A currency's name in the reader's language ("US Dollar", "美元"), or its code where the browser has none. */
function currencyNamer(language: string) {
  const names = new Intl.DisplayNames([language === 'zh' ? 'zh-CN' : language === 'pt' ? 'pt-BR' : 'en'], { type: 'currency' });
  return (code: string) => names.of(code) ?? code;
}

/**
 * The offer and end cards' facts (decision "Template picker"): price and currency on one row, the price before a
 * sale, the brand. Prefilled by the analysis, checked by the contract's rules. Messages show once the user has
 * left a field, and never on the field being typed in, so "54." is not called wrong half-way.
 */
export function OfferFields({ product }: { product: Product }) {
  const { t, i18n } = useTranslation('link-to-video');
  const [touched, setTouched] = useState(false);
  const [editing, setEditing] = useState<OfferField | null>(null);
  const { problems } = offerOf(product);
  const nameOf = currencyNamer(i18n.language);
  const patch = (change: Partial<Product>) => projectController()?.patchProduct(change);
  const shown = (field: OfferField) => (touched && editing !== field ? problems[field] : undefined);
  const typing = (field: OfferField) => ({
    onFocus: () => setEditing(field),
    onBlur: () => {
      setEditing(null);
      setTouched(true);
    },
  });
  const errorOf = (field: OfferField, id: string) => {
    const problem = shown(field);
    return problem ? (
      <p id={`${id}-error`} className={styles.fieldError} role="alert">
        {t(problem)}
      </p>
    ) : null;
  };
  const amount = (field: 'productPrice' | 'productListPrice', id: string, placeholder: string) => (
    <Input
      id={id}
      inputMode="decimal"
      autoComplete="off"
      maxLength={AMOUNT_LENGTH}
      placeholder={placeholder}
      value={shownAmount(product[field], i18n.language)}
      onChange={(event) => patch({ [field]: event.target.value })}
      {...typing(field)}
      {...(shown(field) ? { status: 'error' as const, 'aria-invalid': true, 'aria-describedby': `${id}-error` } : {})}
    />
  );

  return (
    <>
      <div className={styles.field}>
        <label className={styles.hint} htmlFor="product-price">
          {t('offer.price')}
        </label>
        <div className={styles.offerRow}>
          {amount('productPrice', 'product-price', t('offer.pricePlaceholder'))}
          <Select
            aria-label={t('offer.currency')}
            placeholder={t('offer.currency')}
            value={product.productCurrency || undefined}
            onChange={(productCurrency: string) => patch({ productCurrency })}
            {...typing('productCurrency')}
            showSearch={{ optionFilterProp: ['value', 'name'] }}
            popupMatchSelectWidth={false}
            options={currencyChoices(product.productCurrency).map((code) => ({ value: code, label: code, name: nameOf(code) }))}
            optionRender={(option) => `${option.value} · ${option.data.name}`}
            status={shown('productCurrency') ? 'error' : undefined}
          />
        </div>
        {errorOf('productPrice', 'product-price')}
        {errorOf('productCurrency', 'product-currency')}
        <p className={styles.hint}>{t('offer.priceHint')}</p>
      </div>
      <div className={styles.field}>
        <label className={styles.hint} htmlFor="product-list-price">
          {t('offer.listPrice')}
        </label>
        {amount('productListPrice', 'product-list-price', t('offer.listPricePlaceholder'))}
        {errorOf('productListPrice', 'product-list-price')}
      </div>
      <div className={styles.field}>
        <label className={styles.hint} htmlFor="product-brand">
          {t('offer.brand')}
        </label>
        <Input
          id="product-brand"
          autoComplete="off"
          maxLength={BRAND_LENGTH}
          value={product.productBrand}
          onChange={(event) => patch({ productBrand: event.target.value })}
        />
      </div>
    </>
  );
}
