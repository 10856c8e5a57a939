import { avatarEngine, PRESENTER_LAYOUTS, type PresenterLayout } from '@reelsmith/contract';
import { useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { callQuery } from '../../../shared/api/queries';
import { PresenterField } from '../../avatar';
import styles from '../flow.module.css';
import { PresenterIntro } from '../PresenterIntro';
import { projectController } from '../project/open';
import type { Project } from '../project/types';

/** The layout choice's value for "where each preview's template places them". */
const TEMPLATES_PLACE = 'template';

/**
 * A presenter on camera in every preview, chosen before they are made (decisions "Presenter in link to video",
 * "Presenter layouts"): none, a saved one, the user's own photo kept after their consent, or one made from a
 * description, and where they stand (the template's place unless chosen). It goes with the link-video submit as
 * `editorConfig.presenterId` and `presenterLayout`; the quick editor changes it for one video afterwards. Hidden where
 * no one can make a presenter talk.
 */
export function PresenterSetting({ project }: { project: Project }) {
  const engine = useQuery(callQuery(avatarEngine, {}));
  if (!engine.data || engine.data.engine === null) return null;
  return <PresenterPanel project={project} sandbox={engine.data.engine === 'sandbox'} />;
}

/** The panel itself, on a server that can make a presenter talk. */
function PresenterPanel({ project, sandbox }: { project: Project; sandbox: boolean }) {
  const { t } = useTranslation('link-to-video');
  const { presenterId, presenterLayout } = project.editorConfig;
  const patch = (change: Partial<Project['editorConfig']>) => projectController()?.patchEditorConfig(change);

  return (
    <section className={styles.panel} aria-labelledby="presenter-setting-title">
      <h2 id="presenter-setting-title" className={styles.panelTitle}>
        {t('presenter.title')}
      </h2>
      <PresenterIntro sandbox={sandbox} />
      {presenterId && (
        <>
          <label htmlFor="presenter-setting-layout" className={styles.hint}>
            {t('presenter.layout')}
          </label>
          <Select
            id="presenter-setting-layout"
            value={presenterLayout ?? TEMPLATES_PLACE}
            options={[
              { value: TEMPLATES_PLACE, label: t('presenter.layouts.template') },
              ...PRESENTER_LAYOUTS.map((value) => ({ value, label: t(`presenter.layouts.${value}`) })),
            ]}
            onChange={(value: string) => patch({ presenterLayout: value === TEMPLATES_PLACE ? undefined : (value as PresenterLayout) })}
          />
        </>
      )}
      <PresenterField
        presenterId={presenterId ?? null}
        onChoose={(chosen) => patch(chosen ? { presenterId: chosen } : { presenterId: undefined, presenterLayout: undefined })}
      />
    </section>
  );
}
