import type { ReactNode } from 'react';
import {
  UNSAFE_DataRouterContext as DataRouterContext,
  UNSAFE_DataRouterStateContext as DataRouterStateContext,
  UNSAFE_LocationContext as LocationContext,
  MemoryRouter,
  UNSAFE_RouteContext as RouteContext,
} from 'react-router';
import { routes } from './routes.ts';

const emptyRoute = { outlet: null, matches: [], isDataRoute: false };

/**
 * The widget's in-memory router, cut off from any router of the host page: a React host with
 * its own router (the portal's hash router) and the widget never see each other's locations.
 */
export function IsolatedRouter({ children, start = routes.login }: { children: ReactNode; start?: string }) {
  return (
    <DataRouterContext.Provider value={null}>
      <DataRouterStateContext.Provider value={null}>
        <LocationContext.Provider value={null as never}>
          <RouteContext.Provider value={emptyRoute}>
            <MemoryRouter initialEntries={[start]}>{children}</MemoryRouter>
          </RouteContext.Provider>
        </LocationContext.Provider>
      </DataRouterStateContext.Provider>
    </DataRouterContext.Provider>
  );
}
