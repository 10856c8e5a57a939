import {
  BRAND_FONT_IDS,
  BRAND_FONTS,
  type BrandKitView,
  brandKitGet,
  brandKitSave,
  CALL_TO_ACTION_MAX,
  linkVideoTemplates,
} from '@reelsmith/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, ColorPicker, Drawer, Input, Select } from 'antd';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../shared/api/client';
import { callKey, callQuery } from '../../shared/api/queries';
import { Busy } from '../../shared/ui/Busy';
import { RetryAlert } from '../../shared/ui/RetryAlert';
import { toast } from '../../shared/ui/toast';
import { ImageInput } from '../generation';
import { BrandKitPreview } from './BrandKitPreview';
import styles from './brandKit.module.css';
import { type BrandKitDraft, draftOf } from './draft';

/** The user's brand kit in a side panel, opened from the account menu and the link-to-video editor. */
export function BrandKitPanel({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('brand-kit');
  const kit = useQuery({ ...callQuery(brandKitGet), enabled: open });
  return (
    <Drawer open={open} onClose={onClose} title={t('title')} size="min(520px, 100vw)" destroyOnHidden>
      {kit.data ? (
        <BrandKitForm kit={kit.data} onDone={onClose} />
      ) : kit.isError ? (
        // A kit that could not be read says so and offers Retry, rather than spinning for ever.
        <RetryAlert title={t('loadFailed')} onRetry={() => kit.refetch()} />
      ) : (
        <Busy />
      )}
    </Drawer>
  );
}

function BrandKitForm({ kit, onDone }: { kit: BrandKitView; onDone: () => void }) {
  const { t } = useTranslation('brand-kit');
  const queryClient = useQueryClient();
  const id = useId();
  const [draft, setDraft] = useState(() => draftOf(kit));
  const change = (patch: Partial<BrandKitDraft>) => setDraft((current) => ({ ...current, ...patch }));
  const callToAction = draft.callToAction.trim();

  const save = useMutation({
    mutationFn: () =>
      api(brandKitSave, {
        body: {
          logoResKey: draft.logo?.resKey ?? null,
          primaryColor: draft.primaryColor,
          secondaryColor: draft.secondaryColor,
          fontId: draft.fontId,
          callToAction,
        },
      }),
    onSuccess: async () => {
      // The template thumbnails are drawn in the kit: their links change with it.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: callKey(brandKitGet) }),
        queryClient.invalidateQueries({ queryKey: callKey(linkVideoTemplates) }),
      ]);
      toast.success(t('saved'));
      onDone();
    },
  });

  return (
    <div className={styles.form}>
      <p className={styles.hint}>{t('intro')}</p>
      {kit.isDefault && <Alert type="info" showIcon title={t('defaultNote')} />}
      <BrandKitPreview draft={draft} />
      <div className={styles.field}>
        <ImageInput label={t('logo')} value={draft.logo} onChange={(logo) => change({ logo })} />
        <span className={styles.hint}>{t('logoHint')}</span>
      </div>
      <div className={styles.colours}>
        <ColourField
          label={t('primaryColor')}
          hint={t('primaryHint')}
          value={draft.primaryColor}
          onChange={(primaryColor) => change({ primaryColor })}
        />
        <ColourField
          label={t('secondaryColor')}
          hint={t('secondaryHint')}
          value={draft.secondaryColor}
          onChange={(secondaryColor) => change({ secondaryColor })}
        />
      </div>
      <div className={styles.field}>
        <label className={styles.label} htmlFor={`${id}-font`}>
          {t('font')}
        </label>
        <Select
          id={`${id}-font`}
          value={draft.fontId}
          onChange={(fontId) => change({ fontId })}
          options={BRAND_FONT_IDS.map((fontId) => ({
            value: fontId,
            label: (
              <span style={{ fontFamily: BRAND_FONTS[fontId].cssFamily, fontWeight: BRAND_FONTS[fontId].cssWeight }}>
                {BRAND_FONTS[fontId].name} · 品牌 Ação
              </span>
            ),
          }))}
        />
        <span className={styles.hint}>{t('fontHint')}</span>
      </div>
      <div className={styles.field}>
        <label className={styles.label} htmlFor={`${id}-cta`}>
          {t('callToAction')}
        </label>
        <Input
          id={`${id}-cta`}
          value={draft.callToAction}
          maxLength={CALL_TO_ACTION_MAX}
          showCount
          status={callToAction ? undefined : 'error'}
          onChange={(event) => change({ callToAction: event.target.value })}
        />
        <span className={styles.hint}>{callToAction ? t('callToActionHint') : t('callToActionRequired')}</span>
      </div>
      <div className={styles.actions}>
        <Button onClick={onDone}>{t('cancel')}</Button>
        <Button type="primary" loading={save.isPending} disabled={!callToAction} onClick={() => save.mutate()}>
          {t('save')}
        </Button>
      </div>
    </div>
  );
}

interface ColourFieldProps {
  label: string;
  hint: string;
  value: string;
  onChange: (hex: string) => void;
}

function ColourField({ label, hint, value, onChange }: ColourFieldProps) {
  return (
    <div className={styles.field}>
      <span className={styles.label}>{label}</span>
      {/* A block around the trigger: as a flex item of the column it would stretch to the column's width. */}
      <div>
        <ColorPicker
          value={value}
          disabledAlpha
          showText
          aria-label={label}
          onChangeComplete={(colour) => onChange(colour.toHexString())}
        />
      </div>
      <span className={styles.hint}>{hint}</span>
    </div>
  );
}
