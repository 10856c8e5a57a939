import type { ReactNode } from 'react';
import { Glow } from '../../shared/ui/Glow';
import { LogoLink } from '../../shared/ui/LogoLink';
import styles from './auth.module.css';

/** The full-screen card the account pages share (they have no header or sidebar). */
export function AuthFrame({ title, subtitle, children }: { title?: string; subtitle?: string; children: ReactNode }) {
  return (
    <main className={styles.page}>
      <Glow top={-240} />
      <div className={styles.brand}>
        <LogoLink />
      </div>
      <section className={styles.card} aria-labelledby={title ? 'auth-title' : undefined}>
        {title && (
          <h1 id="auth-title" className={styles.title}>
            {title}
          </h1>
        )}
        {subtitle && <p className={styles.subtitle}>{subtitle}</p>}
        {children}
      </section>
    </main>
  );
}
