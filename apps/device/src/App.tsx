import { Suspense, useEffect } from 'react';
import { Redirect, Route, Router, Switch } from 'wouter';
import { Announcer } from './announcer.tsx';
import { DeviceKeyProvider } from './device/DeviceKeyContext.tsx';
import type { KeyStore } from './device/keyStore.ts';
import { DevicePage } from './pages/device/DevicePage.tsx';
import { codesPage, pages } from './pages/onDemand.ts';
import { routes, useHashLocation } from './router.ts';
import { Shell } from './shell/Shell.tsx';

const AddAccountPage = pages.component((m) => m.AddAccountPage);
const CodesPage = codesPage.component((m) => m.CodesPage);

/** Hash routes: '#/' your device, '#/codes' codes, '#/add' add an account; anything else goes to '#/'. */
export function App({ store }: { store: KeyStore | null }) {
  useEffect(() => pages.prefetch(), []);
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
