import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ConfigProvider } from 'antd';
import type { ReactNode } from 'react';
import { appQueryClient } from '../../shared/api/queryClient';
import { locale } from '../../shared/i18n/i18n';
import { ToastBridge } from '../../shared/ui/ToastBridge';
import styles from './AppProviders.module.css';
import { ANTD_LOCALES } from './antdLocales';
import { THEME } from './theme';

/** `queryClient`: tests mount each app with a fresh one (shared/api/queryClient.ts), so no answer cached by one test is seen by the next. */
export function AppProviders({ children, queryClient = appQueryClient() }: { children: ReactNode; queryClient?: QueryClient }) {
  return (
    // antd would space out two-character Chinese button labels (登 录); the app's labels are written as meant.
    <ConfigProvider theme={THEME} locale={ANTD_LOCALES[locale]} button={{ autoInsertSpace: false }}>
      {/* In place of antd's <App> (decision "First-load bundle split"): its text styles, and a toast holder. */}
      <div className={styles.app}>
        <ToastBridge />
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </div>
    </ConfigProvider>
  );
}
