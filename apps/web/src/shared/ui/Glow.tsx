import styles from './ui.module.css';

/** A soft light of the brand colour behind a page's focal point, `top` pixels from its parent's top. */
export function Glow({ top }: { top: number }) {
  return <div className={styles.glow} style={{ top }} aria-hidden="true" />;
}
