import { i18n } from '../i18n/i18n';
import { toast } from './toast';

/**
 * Puts text on the clipboard and says how it went: `copied` on success, spec "Error catalogue"'s "Copy failed" when the
 * browser refuses (no permission, or no clipboard at all outside a secure context).
 */
export async function copyText(text: string, copied: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    toast.success(copied);
    return true;
  } catch {
    toast.error(i18n.t('shared:messages.copyFailed'));
    return false;
  }
}
