import { RemoveButton } from '../../shared/ui/RemoveButton';
import styles from './generation.module.css';

export interface Preset {
  id: string;
  name: string;
  imageUrl: string;
  /** The user's own, which they may remove (with `onRemove`). */
  removable?: boolean;
}

/** A row of preset pictures (models, apparel templates, presenters) of which one may be chosen. */
export function PresetTiles({
  label,
  presets,
  chosen,
  onChoose,
  onRemove,
}: {
  label: string;
  presets: Preset[];
  chosen: string | null;
  onChoose: (preset: Preset) => void;
  /** Removes a removable preset; `label` names the button. */
  onRemove?: { label: (preset: Preset) => string; remove: (preset: Preset) => void } | undefined;
}) {
  return (
    <ul className={styles.tiles} aria-label={label}>
      {presets.map((preset) => (
        <li key={preset.id} className={styles.tile}>
          <button type="button" className={styles.tileButton} aria-pressed={preset.id === chosen} onClick={() => onChoose(preset)}>
            <img src={preset.imageUrl} alt={preset.name} />
            <span className={styles.tileName}>{preset.name}</span>
          </button>
          {preset.removable && onRemove && (
            <RemoveButton className={styles.tileRemove} label={onRemove.label(preset)} onRemove={() => onRemove.remove(preset)} />
          )}
        </li>
      ))}
    </ul>
  );
}
