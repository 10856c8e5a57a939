import { assetList, type LibraryAsset, type ProjectSummary, projectList } from '@reelsmith/contract';
import { api } from '../../shared/api/client';
import { Pager } from '../../shared/paging/pager';
import { assetQuery, type LibraryFilters, type Sort } from './filters';

/** Cards a page: fills whole rows of 2, 3, 4 or 6 columns. */
export const LIBRARY_PAGE_SIZE = 24;

export const assetKey = (asset: LibraryAsset): string => asset.fileId;
export const projectKey = (project: ProjectSummary): string => project.projectId;

/** The user's assets matching the filters, page by page; resetting the pager cancels the page on its way. */
export const assetPager = (filters: LibraryFilters): Pager<LibraryAsset> =>
  new Pager(
    async (page, signal) => (await api(assetList, { body: { page, pageSize: LIBRARY_PAGE_SIZE, ...assetQuery(filters) }, signal })).list,
    LIBRARY_PAGE_SIZE,
    assetKey,
  );

/** The user's link-to-video projects, page by page (the getProjects call is cancellable). */
export const projectPager = (sort: Sort): Pager<ProjectSummary> =>
  new Pager(
    async (page, signal) => (await api(projectList, { body: { page, pageSize: LIBRARY_PAGE_SIZE, sort }, signal })).list,
    LIBRARY_PAGE_SIZE,
    projectKey,
  );
