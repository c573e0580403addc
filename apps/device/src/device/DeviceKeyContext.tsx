import { createContext, type ReactNode, useContext, useEffect, useState } from 'react';
import { type DeviceKey, loadDeviceKey } from './deviceKey.ts';
import { indexedDbKeyStore, type KeyStore } from './keyStore.ts';

export type KeyState =
  | { status: 'loading' }
  | { status: 'ready'; key: DeviceKey }
  | { status: 'unavailable' };

const KeyContext = createContext<KeyState>({ status: 'loading' });

/** The browser's store, or none where IndexedDB is missing (the app then says it cannot work). */
export const browserKeyStore = (): KeyStore | null =>
  typeof indexedDB === 'undefined' ? null : indexedDbKeyStore();

/** Loads (or makes, on first start) the device key once for the whole app. */
export function DeviceKeyProvider({ store, children }: { store: KeyStore | null; children: ReactNode }) {
  const [state, setState] = useState<KeyState>({ status: 'loading' });
  useEffect(() => {
    let live = true;
    if (!store || !globalThis.crypto?.subtle) {
      setState({ status: 'unavailable' });
      return;
    }
    loadDeviceKey(store).then(
      (key) => live && setState({ status: 'ready', key }),
      () => live && setState({ status: 'unavailable' }),
    );
    return () => {
      live = false;
    };
  }, [store]);
  return <KeyContext.Provider value={state}>{children}</KeyContext.Provider>;
}

export const useDeviceKey = () => useContext(KeyContext);
