import { type AdAspectRatio, TEMPLATE_IDS, type TemplateId } from '@reelsmith/contract';
import type { CSSProperties, ReactNode } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import styles from '../flow.module.css';

/** A template's name in the reader's language. */
export function useTemplateName(): (templateId: TemplateId) => string {
  const { t } = useTranslation('link-to-video');
  return (templateId) => t(`templates.names.${templateId}`);
}

/** A thumbnail that shows a shimmering frame until its picture has arrived (the service draws it on first ask). */
function Thumbnail({ url }: { url: string | undefined }) {
  const [loaded, setLoaded] = useState(false);
  if (!url) return null;
  return <img src={url} alt="" loading="lazy" decoding="async" data-loaded={loaded} onLoad={() => setLoaded(true)} />;
}

function Tile({
  group,
  actions,
  checked,
  disabled,
  onSelect,
  picture,
  name,
  hint,
}: {
  group: string;
  actions: boolean;
  checked: boolean;
  disabled: boolean;
  onSelect: () => void;
  picture: ReactNode;
  name: string;
  hint?: string;
}) {
  const face = (
    <>
      <span className={styles.templateThumb}>{picture}</span>
      <span className={styles.templateName}>{name}</span>
    </>
  );
  return actions ? (
    <button type="button" className={styles.templateTile} aria-pressed={checked} disabled={disabled} onClick={onSelect} title={hint}>
      {face}
    </button>
  ) : (
    <label className={styles.templateTile} title={hint}>
      <input type="radio" name={group} checked={checked} disabled={disabled} onChange={onSelect} />
      {face}
    </label>
  );
}

/**
 * The six templates as a row of thumbnails to choose from (decision "Template picker"): a grid on a wide screen,
 * one row that scrolls sideways on a phone. With `automatic`, a first choice leaves the template to the service,
 * a different one per preview (`undefined`).
 *
 * A setting (the edit-product page) is a radio group. Where a choice acts at once (the quick editor re-renders),
 * `actions` makes the tiles toggle buttons instead: a radio group selects as its arrow keys move, and each arrow
 * press would start a render.
 */
export function TemplatePicker({
  group,
  labelledBy,
  value,
  onChange,
  thumbnails,
  aspectRatio,
  automatic = false,
  actions = false,
  disabled = false,
}: {
  /** The radio group's name, unique on the page. */
  group: string;
  labelledBy: string;
  value: TemplateId | undefined;
  onChange: (templateId: TemplateId | undefined) => void;
  thumbnails: Partial<Record<TemplateId, string>>;
  aspectRatio: AdAspectRatio;
  automatic?: boolean;
  actions?: boolean;
  disabled?: boolean;
}) {
  const { t } = useTranslation('link-to-video');
  const nameOf = useTemplateName();
  const shape = { '--template-ratio': aspectRatio.replace(':', ' / ') } as CSSProperties;
  const tiles = (
    <>
      {automatic && (
        <Tile
          group={group}
          actions={actions}
          checked={value === undefined}
          disabled={disabled}
          onSelect={() => onChange(undefined)}
          name={t('templates.automatic')}
          hint={t('templates.automaticHint')}
          picture={
            <span className={styles.templateMosaic}>
              {TEMPLATE_IDS.slice(0, 4).map((templateId) => (
                <Thumbnail key={templateId} url={thumbnails[templateId]} />
              ))}
            </span>
          }
        />
      )}
      {TEMPLATE_IDS.map((templateId) => (
        <Tile
          key={templateId}
          group={group}
          actions={actions}
          checked={value === templateId}
          disabled={disabled}
          onSelect={() => onChange(templateId)}
          name={nameOf(templateId)}
          picture={<Thumbnail key={thumbnails[templateId]} url={thumbnails[templateId]} />}
        />
      ))}
    </>
  );
  return actions ? (
    <fieldset aria-labelledby={labelledBy} className={styles.templateRow} data-shape={aspectRatio} style={shape}>
      {tiles}
    </fieldset>
  ) : (
    <div role="radiogroup" aria-labelledby={labelledBy} className={styles.templateRow} data-shape={aspectRatio} style={shape}>
      {tiles}
    </div>
  );
}
