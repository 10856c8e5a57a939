import { AssetOrigin, AssetStatus, AssetType, type assetList, type CallBody, SortOrder } from '@reelsmith/contract';

type AssetListBody = CallBody<typeof assetList>;
export type AssetTypeFilter = NonNullable<AssetListBody['type']>;
export type AssetOriginFilter = NonNullable<AssetListBody['source']>;
export type AssetStatusFilter = NonNullable<AssetListBody['status']>;
export type Sort = NonNullable<AssetListBody['sort']>;

/** The library's two tabs: the user's files, and their link-to-video projects. */
export const LIBRARY_TABS = ['assets', 'projects'] as const;
export type LibraryTab = (typeof LIBRARY_TABS)[number];

/** What the assets page shows; kept in the address bar so a reload, a shared link or Back shows the same. */
export interface LibraryFilters {
  tab: LibraryTab;
  type?: AssetTypeFilter;
  source?: AssetOriginFilter;
  status?: AssetStatusFilter;
  sort: Sort;
}

/** The filter choices in the order the page offers them (spec "Screens and routes" screen 5). */
export const FILTER_OPTIONS = {
  type: AssetType.options,
  source: AssetOrigin.options,
  status: AssetStatus.options,
} as const;
export const SORT_OPTIONS = SortOrder.options;

const DEFAULTS = { tab: 'assets', sort: 'newest' } as const;

/** A value the address bar holds, if it is one of the choices; anything else reads as no filter. */
const choice = <T extends string>(options: readonly T[], value: string | null): T | undefined => options.find((option) => option === value);

export function readFilters(params: URLSearchParams): LibraryFilters {
  return {
    tab: choice(LIBRARY_TABS, params.get('tab')) ?? DEFAULTS.tab,
    type: choice(FILTER_OPTIONS.type, params.get('type')),
    source: choice(FILTER_OPTIONS.source, params.get('source')),
    status: choice(FILTER_OPTIONS.status, params.get('status')),
    sort: choice(SORT_OPTIONS, params.get('sort')) ?? DEFAULTS.sort,
  };
}

/** The address bar's query for the filters; defaults are left out so the plain address is the default view. */
export function writeFilters(filters: LibraryFilters): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of ['tab', 'type', 'source', 'status', 'sort'] as const) {
    const value = filters[key];
    if (value !== undefined && value !== DEFAULTS[key as keyof typeof DEFAULTS]) params.set(key, value);
  }
  return params;
}

/** The list call's filters for the assets tab. */
export const assetQuery = ({ type, source, status, sort }: LibraryFilters) => ({ type, source, status, sort });
