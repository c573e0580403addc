/** The portal (served at /); its entry for tests and other workspaces. */
export { App } from './App.tsx';
