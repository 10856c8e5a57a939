import { DeleteOutlined, EditOutlined, FormOutlined, LinkOutlined } from '@ant-design/icons';
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

/** A task still running or failed is worth a badge; a finished or idle project is not. */
const BADGE: Partial<Record<TaskStatus, { key: string; color: string }>> = {
  SUBMITTED: { key: 'project.generating', color: 'processing' },
  IN_PROGRESS: { key: 'project.generating', color: 'processing' },
  FAILURE: { key: 'status.failed', color: 'error' },
};

/** A link-to-video project: its cover, name and last change; opened in the editor, renamed or deleted. */
export function ProjectCard({ project, handlers }: { project: ProjectSummary; handlers: ProjectHandlers }) {
  const { t } = useTranslation('assets');
  const badge = project.taskStatus ? BADGE[project.taskStatus] : undefined;
  const meta = [t('project.kind'), t('project.updated', { date: formatCardDate(project.updateTime) })].join(' · ');

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
          {badge && (
            <Tag className={styles.badge} color={badge.color}>
              {t(badge.key)}
            </Tag>
          )}
        </button>
      }
      meta={meta}
      metaTitle={project.productLink ?? undefined}
      actions={
        <>
          <CardAction label={t('actions.edit')} icon={<FormOutlined />} onClick={() => handlers.onEdit(project)} />
          <CardAction label={t('actions.rename')} icon={<EditOutlined />} onClick={() => handlers.onRename(project)} />
          <CardAction label={t('actions.delete')} icon={<DeleteOutlined />} danger onClick={() => handlers.onDelete(project)} />
        </>
      }
    />
  );
}
