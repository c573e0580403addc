import type { Language } from '@gatehouse/i18n';
import { useShownLanguage } from '@gatehouse/signin';
import { Announcer } from '@gatehouse/ui';
import { Suspense, useEffect, useLayoutEffect } from 'react';
import { Redirect, Route, Router, Switch } from 'wouter';
import { DeviceKeyProvider } from './device/DeviceKeyContext.tsx';
import type { KeyStore } from './device/keyStore.ts';
import { browserLanguage, loadTexts, textsLanguage } from './messages/index.ts';
import { DevicePage } from './pages/device/DevicePage.tsx';
import { codesPage, pages } from './pages/onDemand.ts';
import { routes, useHashLocation } from './router.ts';
import { Shell } from './shell/Shell.tsx';

const AddAccountPage = pages.component((m) => m.AddAccountPage);
const CodesPage = codesPage.component((m) => m.CodesPage);

/**
 * Hash routes: '#/' your device, '#/codes' codes, '#/add' add an account; anything else goes to '#/'.
 * In the browser's language (English when none is shipped): nothing renders until its texts are in,
 * so no other language shows first (docs/decisions/029-languages.md). A new `language` keeps the
 * pages (and their state) and shows them in it once its texts are in.
 */
export function App({
  store,
  language = browserLanguage(),
}: {
  store: KeyStore | null;
  language?: Language;
}) {
  const shown = useShownLanguage(language, loadTexts, textsLanguage);
  // The page's language changes in the same commit as its texts, before the browser paints or an
  // assistive technology reads them (an effect ran a moment later: Spanish text read as English).
  useLayoutEffect(() => {
    if (shown) document.documentElement.lang = shown;
  }, [shown]);
  useEffect(() => {
    if (!shown) return;
    // The add-an-account page (and its texts) while the browser is idle.
    pages.prefetch();
  }, [shown]);
  // Before the first language's texts, nothing; a later change re-renders in place once they are in.
  if (!shown) return null;
  return (
    <Announcer>
      <DeviceKeyProvider store={store}>
        <Router hook={useHashLocation}>
          <Shell>
            <Suspense fallback={null}>
              <Switch>
                <Route path={routes.device}>
                  <DevicePage />
                </Route>
                <Route path={routes.codes}>
                  <CodesPage />
                </Route>
                <Route path={routes.add}>
                  <AddAccountPage />
                </Route>
                <Route>
                  <Redirect to={routes.device} replace />
                </Route>
              </Switch>
            </Suspense>
          </Shell>
        </Router>
      </DeviceKeyProvider>
    </Announcer>
  );
}
