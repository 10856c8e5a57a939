import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import styles from './assets.module.css';
import { FILTER_OPTIONS, type LibraryFilters, SORT_OPTIONS } from './filters';

type FilterKey = keyof typeof FILTER_OPTIONS;

/**
 * Filters by type, source and status, and the sort (spec "Screens and routes" screen 5). Projects have no type, source or
 * status to filter by, so their tab offers the sort alone.
 */
export function LibraryFiltersBar({ filters, onChange }: { filters: LibraryFilters; onChange: (change: Partial<LibraryFilters>) => void }) {
  const { t } = useTranslation('assets');
  const filterKeys = filters.tab === 'assets' ? (Object.keys(FILTER_OPTIONS) as FilterKey[]) : [];
  return (
    <fieldset className={styles.toolbar} aria-label={t('filters.label')}>
      {filterKeys.map((key) => (
        <Select
          key={key}
          aria-label={t(`filters.${key}`)}
          value={filters[key] ?? ''}
          onChange={(value: string) => onChange({ [key]: value || undefined })}
          options={[
            { value: '', label: t(`filters.all.${key}`) },
            ...FILTER_OPTIONS[key].map((option) => ({ value: option, label: t(`${key}.${option}`) })),
          ]}
        />
      ))}
      <Select
        aria-label={t('filters.sort')}
        value={filters.sort}
        onChange={(sort) => onChange({ sort })}
        options={SORT_OPTIONS.map((option) => ({ value: option, label: t(`sort.${option}`) }))}
      />
    </fieldset>
  );
}
