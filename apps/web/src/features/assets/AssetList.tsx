import { assetDelete, assetRename, type LibraryAsset } from '@reelsmith/contract';
import { Button, Empty } from 'antd';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api } from '../../shared/api/client';
import type { PendingUpload } from '../../shared/library/useLibraryUploads';
import { usePager } from '../../shared/paging/usePager';
import { PATHS } from '../../shared/paths';
import { AssetCard, type AssetHandlers } from './AssetCard';
import { AssetViewer } from './AssetViewer';
import type { LibraryFilters } from './filters';
import { ImportingCard } from './ImportingCard';
import { LibraryGrid } from './LibraryGrid';
import { assetKey, assetPager } from './library';
import { RenameModal, type RenameTarget } from './RenameModal';
import { UploadingCard } from './UploadingCard';
import { useConfirmDelete } from './useConfirmDelete';
import type { PendingImport } from './usePendingAssets';

/** The contract's limit on an asset's name. */
const ASSET_NAME_MAX = 255;

interface AssetListProps {
  /** Fixed for the list's life: the page mounts a new list when they change, which cancels the old list's request. */
  filters: LibraryFilters;
  uploads: readonly PendingUpload[];
  imports: readonly PendingImport[];
  onImportSettled: (fileId: string) => void;
  /** Something was deleted: the page's statistics are stale. */
  onChanged: () => void;
  onClearFilters: () => void;
}

/** The assets tab: uploads and imports in progress first, then the user's assets matching the filters. */
export function AssetList({ filters, uploads, imports, onImportSettled, onChanged, onClearFilters }: AssetListProps) {
  const { t } = useTranslation('assets');
  const navigate = useNavigate();
  const [confirmDelete, deleteDialog] = useConfirmDelete();
  const [state, pager] = usePager(() => assetPager(filters));
  const loadMore = useCallback(() => pager.loadMore(), [pager]);
  const [viewing, setViewing] = useState<LibraryAsset | null>(null);
  const [renaming, setRenaming] = useState<RenameTarget | null>(null);

  const handlers: AssetHandlers = {
    onView: setViewing,
    onEdit: (asset) => navigate(`${PATHS.imageEdit}?${new URLSearchParams({ fileId: asset.fileId })}`),
    onRename: (asset) =>
      setRenaming({
        name: asset.fileName,
        maxLength: ASSET_NAME_MAX,
        rename: async (fileName) => {
          await api(assetRename, { body: { fileId: asset.fileId, fileName }, silent: true });
          pager.replace({ ...asset, fileName });
        },
      }),
    onDelete: (asset) =>
      confirmDelete(asset.fileName, async () => {
        await api(assetDelete, { body: { fileIds: [asset.fileId] }, silent: true });
        pager.remove(asset.fileId);
        onChanged();
      }),
  };

  const listed = new Set(state.items.map(assetKey));
  const leading = [
    ...uploads.map((upload) => (
      <li key={upload.id}>
        <UploadingCard name={upload.name} percent={upload.percent} onCancel={upload.cancel} />
      </li>
    )),
    ...imports
      .filter((pending) => !listed.has(pending.fileId))
      .map((pending) => (
        <li key={pending.fileId}>
          <ImportingCard fileId={pending.fileId} name={pending.url} onSettled={onImportSettled} />
        </li>
      )),
  ];
  const filtered = filters.type !== undefined || filters.source !== undefined || filters.status !== undefined;

  return (
    <>
      {deleteDialog}
      <LibraryGrid
        label={t('tabs.assets')}
        state={state}
        loadMore={loadMore}
        keyOf={assetKey}
        leading={leading}
        failedTitle={t('failed.assets')}
        empty={
          filtered ? (
            <Empty description={t('empty.filtered')}>
              <Button onClick={onClearFilters}>{t('filters.clear')}</Button>
            </Empty>
          ) : (
            <Empty description={t('empty.assets')} />
          )
        }
        renderItem={(asset) =>
          // A URL import still fetching: its card follows the task until it ends.
          asset.status === 'draft' && asset.source === 'url' ? (
            <ImportingCard fileId={asset.fileId} name={asset.fileName} onSettled={onImportSettled} />
          ) : (
            <AssetCard asset={asset} handlers={handlers} />
          )
        }
      />
      <AssetViewer asset={viewing} onClose={() => setViewing(null)} />
      <RenameModal target={renaming} onClose={() => setRenaming(null)} />
    </>
  );
}
