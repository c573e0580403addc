/** The screens of this factor and their texts: loaded on demand, in the screens' chunk (screens/lazy.ts). */
export { TokenScreen } from './TokenScreen.tsx';
export { TokenSyncScreen } from './TokenSyncScreen.tsx';

export const texts = import.meta.glob('../../../messages/*.json', {
  query: { groups: 'appCodes' },
  import: 'default',
});
