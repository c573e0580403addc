/** The screens of this factor and their texts: loaded on demand, in the screens' chunk (screens/lazy.ts). */
export { RepScreen } from './RepScreen.tsx';

export const texts = import.meta.glob('../../../messages/*.json', {
  query: { groups: 'otp' },
  import: 'default',
});
