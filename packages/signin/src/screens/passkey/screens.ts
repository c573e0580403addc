/** The passkey screen and its texts: loaded on demand, in the screens' chunk (screens/lazy.ts). */
export { default as PasskeyScreen } from './PasskeyScreen.tsx';

export const texts = import.meta.glob('../../../messages/*.json', {
  query: { groups: 'passkey' },
  import: 'default',
});

/** The screen of each of its routes (route name -> export above), read off the login route (screens/Routes.tsx). */
export const screenNames: Readonly<Record<string, string>> = {
  authenticatorPasskey: 'PasskeyScreen',
};
