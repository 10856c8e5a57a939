import { Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Busy } from '../../../shared/ui/Busy';
import { toast } from '../../../shared/ui/toast';
import { BrandKitButton } from '../../brand-kit';
import styles from '../flow.module.css';
import { projectController } from '../project/open';
import { useProjectTaskState } from '../project/taskApi';
import { isUnfinished } from '../project/types';
import { stageUrl, useProjectPage } from '../project/useProjectPage';
import { productProblem } from '../project/validate';
import { AnalysisFailed } from './AnalysisFailed';
import { AssetPanel } from './AssetPanel';
import { PresenterSetting } from './PresenterSetting';
import { ProductFields } from './ProductFields';
import { ScriptChoice } from './ScriptChoice';
import { VideoSettings } from './VideoSettings';

/** Step two of link to video: the product the analysis found, its assets and the script, then generation. */
export function EditProductPage() {
  const { t } = useTranslation('link-to-video');
  const project = useProjectPage('editProduct');
  const { failure } = useProjectTaskState(project);
  const navigate = useNavigate();
  const [submitting, setSubmitting] = useState(false);

  if (!project) return <Busy />;
  const analysing = project.taskPath === 'link-analysis' && isUnfinished(project.taskStatus);
  if (analysing) return <Busy text={t('product.analysing')} />;
  // No product and no analysis under way: it failed (or never started). The page says why and offers the ways on.
  if (!project.product) return <AnalysisFailed project={project} reason={failure} />;

  const generate = async () => {
    const problem = productProblem(project);
    if (problem) {
      toast.error(t(problem));
      return;
    }
    setSubmitting(true);
    try {
      await projectController()?.submitLinkVideo();
      navigate(stageUrl('preview', project.projectId));
    } catch {
      // The API client has shown why.
      setSubmitting(false);
    }
  };

  return (
    <div className={styles.page}>
      <div className={styles.columns}>
        <div className={styles.stack}>
          <ProductFields product={project.product} />
          <AssetPanel project={project} />
        </div>
        <div className={styles.stack}>
          <ScriptChoice product={project.product} />
          <VideoSettings project={project} />
          <PresenterSetting project={project} />
          <BrandKitButton />
          <Button type="primary" size="large" block loading={submitting} disabled={project.assetUrlTasks.length > 0} onClick={generate}>
            {t('product.generate')}
          </Button>
          {project.assetUrlTasks.length > 0 && <p className={styles.hint}>{t('product.importPending')}</p>}
        </div>
      </div>
    </div>
  );
}
