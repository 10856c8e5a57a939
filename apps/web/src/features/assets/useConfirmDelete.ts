import { Modal } from 'antd';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../shared/ui/toast';

/**
 * Asks before deleting (spec "Screens and routes" screen 5) and then deletes: the dialog waits for the call; a failure says
 * spec "Error catalogue"'s "Delete failed" and leaves the item where it is. The dialog shows in the returned holder,
 * which the caller renders: the app has no antd <App> to hold it (decision "First-load bundle split").
 */
export function useConfirmDelete(): [confirm: (name: string, remove: () => Promise<unknown>) => void, holder: ReactElement] {
  const { t } = useTranslation(['assets', 'shared']);
  const [modal, holder] = Modal.useModal();
  const confirm = (name: string, remove: () => Promise<unknown>) => {
    modal.confirm({
      title: t('delete.title', { name }),
      content: t('delete.content'),
      okText: t('delete.ok'),
      okButtonProps: { danger: true },
      cancelText: t('delete.cancel'),
      onOk: async () => {
        try {
          await remove();
          toast.success(t('delete.deleted'));
        } catch {
          toast.error(t('shared:messages.deleteFailed'));
        }
      },
    });
  };
  return [confirm, holder];
}
