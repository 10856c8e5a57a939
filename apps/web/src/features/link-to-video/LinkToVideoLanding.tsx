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
import { Button } from 'antd';
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { PATHS } from '../../shared/paths';
import { Glow } from '../../shared/ui/Glow';
import { rememberRedirect, useSession } from '../auth';
import { EXAMPLE_LINKS } from './exampleLinks';
import { ExtensionHelp } from './extension/ExtensionHelp';
import styles from './landing.module.css';
import { PROJECT_ID_PARAM, stageUrl } from './project/stage';

/**
 * Query parameters a link may arrive with (from the browser extension): the product link, the page HTML it
 * stored (resKey, with its resUrl) and the device it came from. Creating the project replaces them all with
 * the projectId (spec "States and transitions").
 */
const INPUT_LINK_PARAM = 'inputLink';
const RES_KEY_PARAM = 'resKey';
const ARRIVAL_PARAMS = [INPUT_LINK_PARAM, RES_KEY_PARAM, 'resUrl', 'deviceFingerprint'] as const;

/** The link's check and the project's creation, fetched once the visitor turns to the link box (see startFromLink.ts). */
const loadStart = () => import('./startFromLink');

/** The query string after a project was created: the projectId in, the arrival parameters out. */
export function withProject(search: URLSearchParams, projectId: string): URLSearchParams {
  const next = new URLSearchParams(search);
  for (const name of ARRIVAL_PARAMS) next.delete(name);
  next.set(PROJECT_ID_PARAM, projectId);
  return next;
}

/** The capabilities of spec "What the product does"; texts are `link-to-video:capabilities.<key>`. */
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
 * The home of link to video: a product link box with example links, and what the product can do. A valid
 * link creates a project and starts analysing it, then opens the product editor; a signed-out visitor signs
 * in first and comes back here with the link. A link arriving in `inputLink` (from the browser extension)
 * starts by itself.
 */
export function LinkToVideoLanding() {
  const { t } = useTranslation(['link-to-video', 'errors']);
  const session = useSession((store) => store.session);
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const arrived = params.get(INPUT_LINK_PARAM);
  const [link, setLink] = useState(arrived ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const autoStarted = useRef(false);

  const edit = (value: string) => {
    setLink(value);
    setProblem(null);
  };

  const start = async (value: string) => {
    // The button spins while the link's check loads, on a first visit's first submit.
    setCreating(true);
    const started = await loadStart().catch(() => null);
    if (!started) {
      // The module could not be fetched (offline): the link stays for another try.
      setProblem(t('shared:messages.unknownError'));
      setCreating(false);
      return;
    }
    const productLink = started.parseProductLink(value);
    if (!productLink) {
      setProblem(t('errors:invalidProductUrl'));
      setCreating(false);
      return;
    }
    if (session.state !== 'signedIn') {
      const withLink = new URLSearchParams(params);
      withLink.set(INPUT_LINK_PARAM, productLink);
      rememberRedirect(`${PATHS.linkToVideo}?${withLink}`);
      setCreating(false);
      navigate(PATHS.login);
      return;
    }
    try {
      // Untitled until its product names it (decision "Projects named after the product"), never the shop's host; a
      // name the user gives it in the header is theirs and kept.
      const projectId = await started.createProject({
        productLink,
        htmlResKey: params.get(RES_KEY_PARAM) ?? undefined,
        deviceFingerprint: params.get('deviceFingerprint') ?? undefined,
      });
      setParams(withProject(params, projectId), { replace: true });
      navigate(stageUrl('editProduct', projectId));
    } catch {
      // The API client has shown why; the link stays for another try.
      setCreating(false);
    }
  };

  useEffect(() => {
    if (!arrived || autoStarted.current || session.state === 'loading') return;
    autoStarted.current = true;
    void start(arrived);
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void start(link);
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

        <form className={styles.linkBox} onSubmit={submit} onFocus={() => void loadStart().catch(() => {})} noValidate>
          {/* antd's large borderless Input with its prefix, drawn by landing.module.css: the first visit does not
              download the Input (decision "First-load bundle split"). */}
          <label className={problem ? `${styles.linkInput} ${styles.linkInputError}` : styles.linkInput}>
            <span className={styles.linkInputIcon}>
              <LinkOutlined />
            </span>
            <input
              className={styles.linkInputField}
              name="productLink"
              type="url"
              inputMode="url"
              aria-label={t('form.label')}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? 'product-link-problem' : undefined}
              placeholder={t('form.placeholder')}
              value={link}
              onChange={(event) => edit(event.target.value)}
            />
          </label>
          <Button type="primary" size="large" htmlType="submit" loading={creating}>
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
          {EXAMPLE_LINKS.map(({ label, url }) => (
            <button key={url} type="button" className={styles.chip} title={url} onClick={() => edit(url)}>
              {t(`form.exampleProducts.${label}`)}
            </button>
          ))}
        </div>
        <p className={styles.blockedShops}>
          {t('form.blockedShops')} <ExtensionHelp />
        </p>
        <Link className={styles.batchLink} to={PATHS.linkToVideoBatch}>
          {t('form.batch')}
        </Link>
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
