import { Divider } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PATHS } from '../../shared/paths';
import { LogoLink } from '../../shared/ui/LogoLink';
import styles from './policy.module.css';

/** The three documents of namespace `policy` (features/policy/locales). */
export type PolicyKey = 'terms' | 'privacy' | 'chromePrivacy';

interface PolicyDocument {
  title: string;
  updated: string;
  intro: string;
  sections: { heading: string; paragraphs: string[] }[];
}

const POLICY_PATHS: Record<PolicyKey, string> = {
  terms: PATHS.termsOfUse,
  privacy: PATHS.privacyPolicy,
  chromePrivacy: PATHS.chromePrivacyPolicy,
};

/** A policy page without the app's header: the document, and links to the other policies and home. */
export function PolicyPage({ policy }: { policy: PolicyKey }) {
  const { t } = useTranslation(['policy', 'shell']);
  const document = t(policy, { returnObjects: true }) as PolicyDocument;
  const others = (Object.keys(POLICY_PATHS) as PolicyKey[]).filter((key) => key !== policy);

  return (
    <div className={styles.page}>
      <div className={styles.top}>
        <LogoLink />
      </div>
      <main className={styles.main}>
        <article className={styles.document}>
          <h1 className={styles.title}>{document.title}</h1>
          <p className={styles.updated}>{document.updated}</p>
          <p className={styles.intro}>{document.intro}</p>
          {document.sections.map((section) => (
            <section key={section.heading}>
              <h2 className={styles.heading}>{section.heading}</h2>
              {section.paragraphs.map((paragraph) => (
                <p key={paragraph} className={styles.paragraph}>
                  {paragraph}
                </p>
              ))}
            </section>
          ))}
        </article>
        <Divider />
        <nav className={styles.links}>
          {others.map((key) => (
            <Link key={key} to={POLICY_PATHS[key]}>
              {t(`${key}.title`)}
            </Link>
          ))}
          <Link to={PATHS.home}>{t('shell:nav.home')}</Link>
        </nav>
      </main>
    </div>
  );
}
