import { PROJECT_NAME_MAX } from '@reelsmith/contract';
import { Input } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useProjectSummary, useRenameProject } from '../../shared/api/projectSummary';
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
  // A tool page's own name; a project's is its summary's, the one place it is held (decision "Server data in queries").
  const [toolName, setToolName] = useState<string | null>(() => (projectId ? null : savedToolName(toolModule)));
  const [draft, setDraft] = useState<string | null>(null);
  // Escape closes the field without the rename its blur would otherwise send.
  const cancelled = useRef(false);
  const project = useProjectSummary(projectId);
  const rename = useRenameProject(projectId ?? '');
  const current = (projectId ? project.data?.projectName : toolName) ?? t(`nav.${toolModule}`);

  const commit = () => {
    const name = cancelled.current ? null : nameToRename(draft ?? '', current);
    cancelled.current = false;
    setDraft(null);
    if (!name) return;
    if (projectId) {
      rename.mutate(name, { onSuccess: () => toast.success(t('header.renamed')) });
      return;
    }
    saveToolName(toolModule, name);
    setToolName(name);
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
