/** The device app (served at /device/); its entry for tests and other workspaces. */
export { App } from './App.tsx';
export { type DeviceKey, loadDeviceKey } from './device/deviceKey.ts';
export { indexedDbKeyStore, type KeyStore, memoryKeyStore } from './device/keyStore.ts';
