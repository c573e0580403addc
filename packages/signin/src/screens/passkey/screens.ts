/** The passkey screen and its texts: loaded on demand, in the screens' chunk (screens/lazy.ts). */
export { default as PasskeyScreen } from './PasskeyScreen.tsx';

export const texts = import.meta.glob('../../../messages/*.json', {
  query: { groups: 'passkey' },
  import: 'default',
});
