import { PROJECT_NAME_MAX, type ProjectSummary, projectDelete, projectRename } from '@reelsmith/contract';
import { Button, Empty } from 'antd';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { api } from '../../shared/api/client';
import { usePager } from '../../shared/paging/usePager';
import { PATHS } from '../../shared/paths';
import type { Sort } from './filters';
import { LibraryGrid } from './LibraryGrid';
import { projectKey, projectPager } from './library';
import { ProjectCard, type ProjectHandlers } from './ProjectCard';
import { RenameModal, type RenameTarget } from './RenameModal';
import { useConfirmDelete } from './useConfirmDelete';

/** The projects tab: the user's link-to-video projects, opened in the editor where they stopped. */
export function ProjectList({ sort, onChanged }: { sort: Sort; onChanged: () => void }) {
  const { t } = useTranslation('assets');
  const navigate = useNavigate();
  const [confirmDelete, deleteDialog] = useConfirmDelete();
  const [state, pager] = usePager(() => projectPager(sort));
  const loadMore = useCallback(() => pager.loadMore(), [pager]);
  const [renaming, setRenaming] = useState<RenameTarget | null>(null);

  const handlers: ProjectHandlers = {
    // The editor restores the draft and moves on to the stage the project reached (spec "States and transitions").
    onEdit: (project) => navigate(`${PATHS.editProduct}?${new URLSearchParams({ projectId: project.projectId })}`),
    onRename: (project) =>
      setRenaming({
        name: project.projectName,
        maxLength: PROJECT_NAME_MAX,
        rename: async (fileName) => {
          await api(projectRename, { body: { projectId: project.projectId, fileName }, silent: true });
          pager.replace({ ...project, projectName: fileName });
        },
      }),
    onDelete: (project: ProjectSummary) =>
      confirmDelete(project.projectName, async () => {
        await api(projectDelete, { body: { projectIds: [project.projectId] }, silent: true });
        pager.remove(project.projectId);
        onChanged();
      }),
  };

  return (
    <>
      {deleteDialog}
      <LibraryGrid
        label={t('tabs.projects')}
        state={state}
        loadMore={loadMore}
        keyOf={projectKey}
        failedTitle={t('failed.projects')}
        empty={
          <Empty description={t('empty.projects')}>
            <Link to={PATHS.linkToVideo}>
              <Button type="primary">{t('empty.startProject')}</Button>
            </Link>
          </Empty>
        }
        renderItem={(project) => <ProjectCard project={project} handlers={handlers} />}
      />
      <RenameModal target={renaming} onClose={() => setRenaming(null)} />
    </>
  );
}
