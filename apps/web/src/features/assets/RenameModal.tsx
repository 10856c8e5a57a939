import { Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { toast } from '../../shared/ui/toast';
import { type FieldCheck, FieldForm } from './FieldForm';

export interface RenameTarget {
  name: string;
  maxLength: number;
  /** Sends the new name, and shows it once the service took it. */
  rename: (name: string) => Promise<void>;
}

/**
 * Renames an asset or a project: the name trimmed, non-empty and within the limit (spec "Validation rules"); an unchanged
 * name just closes. A failure says spec "Error catalogue"'s "Edit failed" and leaves the dialog open to try again.
 */
export function RenameModal({ target, onClose }: { target: RenameTarget | null; onClose: () => void }) {
  const { t } = useTranslation(['assets', 'shared']);
  const check = (text: string): FieldCheck => {
    const name = text.trim();
    if (!target || name === target.name) return null;
    if (!name) return { error: t('rename.required') };
    if (name.length > target.maxLength) return { error: t('rename.tooLong', { max: target.maxLength }) };
    return { value: name };
  };
  const rename = async (name: string) => {
    try {
      await target?.rename(name);
    } catch (error) {
      toast.error(t('shared:messages.editFailed'));
      throw error;
    }
    toast.success(t('rename.renamed'));
  };
  return (
    <Modal open={target !== null} title={t('rename.title')} footer={null} onCancel={onClose} destroyOnHidden>
      {target && (
        <FieldForm
          id="rename-name"
          label={t('rename.label')}
          initial={target.name}
          submitLabel={t('rename.save')}
          check={check}
          onSubmit={rename}
          onClose={onClose}
          inputProps={{ count: { show: true, max: target.maxLength } }}
        />
      )}
    </Modal>
  );
}
