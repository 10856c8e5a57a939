import { message } from 'antd';
import { useEffect } from 'react';
import { bindToast } from './toast';

/**
 * Mounted once inside the ConfigProvider: toasts raised anywhere use the app's theme, shown in this holder. Its own
 * message instance, not antd's <App>, whose modal and notification came with it on every first visit (decision
 * "First-load bundle split").
 */
export function ToastBridge() {
  const [themed, holder] = message.useMessage();
  useEffect(() => bindToast(themed), [themed]);
  return holder;
}
