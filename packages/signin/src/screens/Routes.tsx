import type { ComponentType } from 'react';
import { Route, Switch } from 'wouter';
import { addCalls } from '../api/calls.ts';
import { type FactorScreens, factorEntries } from '../factors.ts';
import { routes } from '../routes.ts';
import { AuthenticatorEntry } from './authenticator/AuthenticatorEntry.tsx';
import { ErrorScreen } from './error/ErrorScreen.tsx';
import { ExtendSession } from './session/ExtendSession.tsx';
import { BlockedRoute, RejectRoute } from './states/routes.tsx';
import { StatePage } from './states/StatePage.tsx';
import { ChangeUsernameScreen } from './username/ChangeUsernameScreen.tsx';
import { UsernameConfirmationScreen } from './username/UsernameConfirmationScreen.tsx';

/** Each factor folder's screens.ts: its screens and their texts (docs/decisions/039-widget-factor-registry.md). */
export const factorModules = import.meta.glob<FactorScreens>('./*/screens.ts', { eager: true });

// Each factor's calls join the widget's call table with its screens (api/calls.ts).
for (const module of Object.values(factorModules)) if (module.calls) addCalls(module.calls);

/** A factor's screen: the export `name` of its folder's screens.ts. */
export function factorScreen(key: string, name: string): ComponentType {
  const module = factorModules[`./${key}/screens.ts`];
  const screen = module && Object.hasOwn(module, name) ? module[name] : undefined;
  if (typeof screen !== 'function') throw new Error(`screens/${key}/screens.ts exports no screen ${name}`);
  return screen as ComponentType;
}

/**
 * Each factor's screens, by route (its entry). A screen of several routes is one element key:
 * moving between its routes keeps it mounted, as one component in two routes would be.
 */
const factorRoutes = factorEntries.flatMap((entry) =>
  Object.entries(factorModules[`./${entry.key}/screens.ts`]?.screenNames ?? {}).flatMap(([route, name]) => {
    const path = entry.routes[route];
    return path ? [{ path, key: `${entry.key}/${name}`, Screen: factorScreen(entry.key, name) }] : [];
  }),
);

/**
 * Every screen off the login route (widget spec §2), in the on-demand chunk with the screens
 * themselves: the login route holds only the login screen's route and the error page's
 * (docs/decisions/006-bundle-budgets.md), so the route table and the factors' screen table cost
 * its first paint nothing.
 */
export function OffLoginRoutes() {
  return (
    <Switch>
      <Route path={routes.blocked}>
        <BlockedRoute />
      </Route>
      <Route path={routes.expired}>
        <StatePage name="expired" />
      </Route>
      <Route path={routes.reject}>
        <RejectRoute />
      </Route>
      <Route path={routes.prohibited}>
        <StatePage name="prohibited" />
      </Route>
      <Route path={routes.forcedUpdate}>
        <StatePage name="forced" />
      </Route>
      <Route path={routes.totpBlock}>
        <StatePage name="totpBlock" />
      </Route>
      <Route path={routes.authenticatorTotpBlock}>
        <StatePage name="totpBlock" />
      </Route>
      <Route path={routes.ssoError}>
        <StatePage name="ssoError" />
      </Route>
      <Route path={routes.logout}>
        <StatePage name="logout" />
      </Route>
      <Route path={routes.createUsername}>
        <ChangeUsernameScreen />
      </Route>
      <Route path={routes.usernameConfirmation}>
        <UsernameConfirmationScreen />
      </Route>
      <Route path={routes.authenticator}>
        <AuthenticatorEntry />
      </Route>
      <Route path={routes.extendSession}>
        <ExtendSession />
      </Route>
      {factorRoutes.map(({ path, key, Screen }) => (
        <Route key={key} path={path}>
          <Screen />
        </Route>
      ))}
      <Route>
        <ErrorScreen />
      </Route>
    </Switch>
  );
}
