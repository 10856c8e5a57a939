import { type CallData, projectGetById, projectRename } from '@reelsmith/contract';
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import { callKey, callQuery } from './queries';

// A project's summary (name, link, status…) is server data held in one query, read wherever it is shown: the header,
// the project's pages. Its name lives here and nowhere else, not in the draft, so a rename, or the product's name
// the project takes, shows everywhere at once (decision "Server data in queries").

export type ProjectSummary = CallData<typeof projectGetById>;

export const projectSummaryKey = (projectId: string) => callKey(projectGetById, { projectId });

/** The summary's query; a failure is said by the API client's toast, once however many places read it. */
export const projectSummaryQuery = (projectId: string) => callQuery(projectGetById, { query: { projectId } });

export const useProjectSummary = (projectId: string | null) =>
  useQuery({ ...projectSummaryQuery(projectId ?? ''), enabled: projectId !== null });

/**
 * The service has given the project a new name: the summary takes it in place. A read still under way began
 * before the change and is dropped; without a summary cached, the next read asks the service.
 */
export async function setProjectName(queryClient: QueryClient, projectId: string, projectName: string): Promise<void> {
  const queryKey = projectSummaryKey(projectId);
  await queryClient.cancelQueries({ queryKey, exact: true });
  if (queryClient.getQueryData(queryKey) === undefined) {
    await queryClient.invalidateQueries({ queryKey, exact: true });
    return;
  }
  queryClient.setQueryData<ProjectSummary>(queryKey, (summary) => summary && { ...summary, projectName });
}

/** Renames the project (spec "Screens and routes"); on success the summary holds the new name. */
export function useRenameProject(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (fileName: string) => api(projectRename, { body: { projectId, fileName } }),
    onSuccess: (_, fileName) => setProjectName(queryClient, projectId, fileName),
  });
}
