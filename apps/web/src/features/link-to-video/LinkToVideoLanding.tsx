import {
  ExpandOutlined,
  HighlightOutlined,
  LinkOutlined,
  PictureOutlined,
  PlayCircleOutlined,
  RocketOutlined,
  SkinOutlined,
  ThunderboltOutlined,
  VideoCameraOutlined,
} from '@ant-design/icons';
import { HttpUrl } from '@reelsmith/contract';
import { Alert, Button, Input } from 'antd';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { PATHS } from '../../shared/paths';
import { Glow } from '../../shared/ui/Glow';
import { rememberRedirect } from '../auth/redirect';
import { useUser } from '../auth/session';
import { EXAMPLE_LINKS, exampleLabel } from './exampleLinks';
import styles from './landing.module.css';

/** The query parameter that carries a product link into the link-to-video flow. */
const INPUT_LINK_PARAM = 'inputLink';

/** The capabilities of spec §1; texts are `link-to-video:capabilities.<key>`. */
const CAPABILITIES: { key: string; icon: ReactNode }[] = [
  { key: 'linkToVideo', icon: <LinkOutlined /> },
  { key: 'textToVideo', icon: <VideoCameraOutlined /> },
  { key: 'imageToVideo', icon: <PlayCircleOutlined /> },
  { key: 'textToImage', icon: <PictureOutlined /> },
  { key: 'imageToImage', icon: <HighlightOutlined /> },
  { key: 'virtualTryOn', icon: <SkinOutlined /> },
  { key: 'aiBackground', icon: <RocketOutlined /> },
  { key: 'imageExtension', icon: <ExpandOutlined /> },
  { key: 'imageEnhancement', icon: <ThunderboltOutlined /> },
];

/**
 * The home of link-to-video: a product link box with example links, and what the product can do. The
 * generation flow ships in a later release, so a valid link sends a signed-out visitor to sign in (and back
 * here with the link) and tells a signed-in one plainly that the flow is not here yet.
 */
export function LinkToVideoLanding() {
  const { t } = useTranslation(['link-to-video', 'errors']);
  const user = useUser();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const [link, setLink] = useState(params.get(INPUT_LINK_PARAM) ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const [accepted, setAccepted] = useState(false);

  const edit = (value: string) => {
    setLink(value);
    setProblem(null);
    setAccepted(false);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = HttpUrl.safeParse(link.trim());
    if (!parsed.success) {
      setProblem(t('errors:invalidProductUrl'));
      return;
    }
    const withLink = new URLSearchParams({ [INPUT_LINK_PARAM]: parsed.data });
    if (!user) {
      rememberRedirect(`${PATHS.linkToVideo}?${withLink}`);
      navigate(PATHS.login);
      return;
    }
    setParams(withLink, { replace: true });
    setAccepted(true);
  };

  return (
    <div className={styles.page}>
      <section className={styles.hero} aria-labelledby="landing-title">
        <Glow top={-60} />
        <span className={styles.eyebrow}>{t('hero.eyebrow')}</span>
        <h1 id="landing-title" className={styles.title}>
          {t('hero.title')}
        </h1>
        <p className={styles.subtitle}>{t('hero.subtitle')}</p>

        <form className={styles.linkBox} onSubmit={submit} noValidate>
          <Input
            size="large"
            variant="borderless"
            name="productLink"
            type="url"
            inputMode="url"
            aria-label={t('form.label')}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? 'product-link-problem' : undefined}
            status={problem ? 'error' : undefined}
            prefix={<LinkOutlined />}
            placeholder={t('form.placeholder')}
            value={link}
            onChange={(event) => edit(event.target.value)}
          />
          <Button type="primary" size="large" htmlType="submit">
            {t('form.submit')}
          </Button>
        </form>
        {problem && (
          <p id="product-link-problem" role="alert" className={styles.problem}>
            {problem}
          </p>
        )}

        <div className={styles.examples}>
          <span>{t('form.examples')}</span>
          {EXAMPLE_LINKS.map((example) => (
            <button key={example} type="button" className={styles.chip} title={example} onClick={() => edit(example)}>
              {exampleLabel(example)}
            </button>
          ))}
        </div>

        {accepted && (
          <Alert className={styles.notice} type="info" showIcon title={t('comingNext.title')} description={t('comingNext.body')} />
        )}
      </section>

      <section className={styles.capabilities} aria-labelledby="capabilities-title">
        <h2 id="capabilities-title" className={styles.sectionTitle}>
          {t('capabilities.title')}
        </h2>
        <ul className={styles.grid}>
          {CAPABILITIES.map(({ key, icon }) => (
            <li key={key} className={styles.card}>
              <span className={styles.cardIcon} aria-hidden="true">
                {icon}
              </span>
              <h3 className={styles.cardTitle}>{t(`capabilities.${key}.title`)}</h3>
              <p className={styles.cardBody}>{t(`capabilities.${key}.body`)}</p>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
