import { App } from 'antd';
import { useEffect } from 'react';
import { bindToast } from './toast';

/** Mounted once inside antd's <App>, so toasts raised anywhere use the app's theme. */
export function ToastBridge() {
  const { message } = App.useApp();
  useEffect(() => bindToast(message), [message]);
  return null;
}
