import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { toast } from '../../shared/ui/toast';

/**
 * Asks before deleting (spec "Screens and routes" screen 5) and then deletes: the dialog waits for the call; a failure says
 * spec "Error catalogue"'s "Delete failed" and leaves the item where it is.
 */
export function useConfirmDelete(): (name: string, remove: () => Promise<unknown>) => void {
  const { t } = useTranslation(['assets', 'shared']);
  const { modal } = App.useApp();
  return (name, remove) => {
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
}
