import { DeleteOutlined, EditOutlined, LinkOutlined, ScissorOutlined } from '@ant-design/icons';
import type { ProjectSummary, TaskStatus } from '@reelsmith/contract';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import styles from './assets.module.css';
import { CardAction } from './CardAction';
import { formatCardDate } from './format';
import { LibraryCard } from './LibraryCard';

export interface ProjectHandlers {
  onEdit: (project: ProjectSummary) => void;
  onRename: (project: ProjectSummary) => void;
  onDelete: (project: ProjectSummary) => void;
}

/** Work running or failed says so; otherwise a project is exported or still a draft (decision "Project cards"). */
const TASK_BADGE: Partial<Record<TaskStatus, { key: string; color: string }>> = {
  SUBMITTED: { key: 'project.generating', color: 'processing' },
  IN_PROGRESS: { key: 'project.generating', color: 'processing' },
  FAILURE: { key: 'status.failed', color: 'error' },
};

const badgeOf = (project: ProjectSummary) =>
  (project.taskStatus && TASK_BADGE[project.taskStatus]) ||
  (project.exportCount > 0 ? { key: 'project.exported', color: 'success' } : { key: 'status.draft', color: 'default' });

/** A link-to-video project: its cover, name and last change; opened in the editor, renamed or deleted. */
export function ProjectCard({ project, handlers }: { project: ProjectSummary; handlers: ProjectHandlers }) {
  const { t } = useTranslation('assets');
  const badge = badgeOf(project);
  const meta = [
    t('project.kind'),
    project.exportCount > 0 && t('project.videos', { count: project.exportCount }),
    t('project.updated', { date: formatCardDate(project.updateTime) }),
  ]
    .filter(Boolean)
    .join(' · ');

  return (
    <LibraryCard
      name={project.projectName}
      thumb={
        <button
          type="button"
          className={`${styles.thumb} ${styles.playable}`}
          aria-label={t('actions.edit')}
          onClick={() => handlers.onEdit(project)}
        >
          {project.coverUrl ? <img src={project.coverUrl} alt="" loading="lazy" /> : <LinkOutlined />}
          <Tag className={styles.badge} color={badge.color}>
            {t(badge.key)}
          </Tag>
        </button>
      }
      meta={meta}
      metaTitle={project.productLink ?? undefined}
      actions={
        <>
          <CardAction label={t('actions.edit')} icon={<ScissorOutlined />} onClick={() => handlers.onEdit(project)} />
          <CardAction label={t('actions.rename')} icon={<EditOutlined />} onClick={() => handlers.onRename(project)} />
          <CardAction label={t('actions.delete')} icon={<DeleteOutlined />} danger onClick={() => handlers.onDelete(project)} />
        </>
      }
    />
  );
}
