import styles from './generation.module.css';

export interface Preset {
  id: string;
  name: string;
  imageUrl: string;
}

/** A row of preset pictures (models, apparel templates) of which one may be chosen. */
export function PresetTiles({
  label,
  presets,
  chosen,
  onChoose,
}: {
  label: string;
  presets: Preset[];
  chosen: string | null;
  onChoose: (preset: Preset) => void;
}) {
  return (
    <ul className={styles.tiles} aria-label={label}>
      {presets.map((preset) => (
        <li key={preset.id}>
          <button type="button" className={styles.tileButton} aria-pressed={preset.id === chosen} onClick={() => onChoose(preset)}>
            <img src={preset.imageUrl} alt={preset.name} />
            <span className={styles.tileName}>{preset.name}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
