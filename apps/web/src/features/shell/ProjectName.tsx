import { PROJECT_NAME_MAX, projectGetById, projectRename } from '@reelsmith/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Input } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { api } from '../../shared/api/client';
import { callQuery } from '../../shared/api/queries';
import { toast } from '../../shared/ui/toast';
import { nameToRename, savedToolName, saveToolName } from './projectName';
import styles from './shell.module.css';
import type { ToolModule } from './toolModule';

/** The project of the address bar's `projectId`; a new project id starts a fresh editor. */
export function ProjectName({ toolModule }: { toolModule: ToolModule }) {
  const [params] = useSearchParams();
  const projectId = params.get('projectId');
  return <ProjectNameEditor key={projectId} projectId={projectId} toolModule={toolModule} />;
}

/**
 * The header's project name: the saved project's name, else the tool's label. Clicking edits it in place;
 * leaving the field (or Enter) renames the project when the name really changed (spec "Screens and routes", "Validation
 * rules"); Escape puts the name back. A tool page without a project keeps its name on this device (decision "Tool page
 * names").
 */
function ProjectNameEditor({ projectId, toolModule }: { projectId: string | null; toolModule: ToolModule }) {
  const { t } = useTranslation('shell');
  const [chosen, setChosen] = useState<string | null>(() => (projectId ? null : savedToolName(toolModule)));
  const [draft, setDraft] = useState<string | null>(null);
  // Escape closes the field without the rename its blur would otherwise send.
  const cancelled = useRef(false);
  const project = useQuery({
    ...callQuery(projectGetById, { query: { projectId: projectId ?? '' }, silent: true }),
    enabled: projectId !== null,
  });
  const rename = useMutation({
    mutationFn: (fileName: string) => api(projectRename, { body: { projectId: projectId ?? '', fileName } }),
    onSuccess: (_, fileName) => {
      setChosen(fileName);
      toast.success(t('header.renamed'));
    },
  });
  const current = chosen ?? project.data?.projectName ?? t(`nav.${toolModule}`);

  const commit = () => {
    const name = cancelled.current ? null : nameToRename(draft ?? '', current);
    cancelled.current = false;
    setDraft(null);
    if (!name) return;
    if (projectId) {
      rename.mutate(name);
      return;
    }
    saveToolName(toolModule, name);
    setChosen(name);
  };

  if (draft !== null) {
    return (
      <Input
        autoFocus
        className={styles.projectNameInput}
        aria-label={t('header.projectName')}
        value={draft}
        maxLength={PROJECT_NAME_MAX}
        onChange={(event) => setDraft(event.target.value)}
        onBlur={commit}
        onPressEnter={(event) => event.currentTarget.blur()}
        onKeyDown={(event) => {
          if (event.key !== 'Escape') return;
          cancelled.current = true;
          event.currentTarget.blur();
        }}
      />
    );
  }
  return (
    <button type="button" className={styles.projectName} title={t('header.renameProject')} onClick={() => setDraft(current)}>
      {rename.isPending ? rename.variables : current}
    </button>
  );
}
