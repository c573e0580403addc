/** The screens of this factor and their texts: loaded on demand, in the screens' chunk (screens/lazy.ts). */
export { PushDeniedScreen } from './PushDeniedScreen.tsx';
export { PushScreen } from './PushScreen.tsx';

export const texts = import.meta.glob('../../../messages/*.json', {
  query: { groups: 'push' },
  import: 'default',
});
