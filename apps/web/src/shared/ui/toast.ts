import { message } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';

/**
 * Toasts for code that runs outside components (the API client). Antd's static `message` cannot see the
 * theme, so <ToastBridge> hands over a themed instance once it mounts.
 */
let instance: MessageInstance = message;

export function bindToast(themed: MessageInstance): void {
  instance = themed;
}

export const toast = {
  error: (text: string) => instance.error(text),
  /** Resolves when the toast closes; `seconds` shortens it before a reload. */
  success: (text: string, seconds?: number) => instance.success(text, seconds),
  info: (text: string) => instance.info(text),
};
