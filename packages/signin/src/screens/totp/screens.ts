/** The screens of this factor and their texts: loaded on demand, in the screens' chunk (screens/lazy.ts). */
export { TotpScreen } from './TotpScreen.tsx';

export const texts = import.meta.glob('../../../messages/*.json', {
  query: { groups: 'appCodes' },
  import: 'default',
});
