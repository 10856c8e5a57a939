import { Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Busy } from '../shared/ui/Busy';
import { CurrentRoute } from './currentRoute';
import { Layout } from './layouts/Layout';
import { RouteGuard } from './RouteGuard';
import type { PageRoute } from './routes';
import { useWideScreen } from './useWideScreen';

/** Everything a route table entry asks for around its page: guard, layout, wide screen and document title. */
export function RouteFrame({ route }: { route: PageRoute }) {
  // The title may come from a namespace loaded on demand (the policies'): wait for it without suspending the frame.
  const { t } = useTranslation(route.title.split(':')[0], { useSuspense: false });
  const title = `${t(route.title)} · ${t('shared:appName')}`;
  useWideScreen(route.largerScreen);
  useEffect(() => {
    document.title = title;
  }, [title]);

  return (
    <CurrentRoute value={route}>
      <RouteGuard route={route}>
        <Layout kind={route.layout} toolModule={route.toolModule}>
          <Suspense fallback={<Busy />}>
            <route.page />
          </Suspense>
        </Layout>
      </RouteGuard>
    </CurrentRoute>
  );
}
