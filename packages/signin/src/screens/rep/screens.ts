/** The screens of this factor and their texts: loaded on demand, in the screens' chunk (screens/lazy.ts). */
export { RepScreen } from './RepScreen.tsx';

export const texts = import.meta.glob('../../../messages/*.json', {
  query: { groups: 'otp' },
  import: 'default',
});

/** The screen of each of its routes (route name -> export above), read off the login route (screens/Routes.tsx). */
export const screenNames: Readonly<Record<string, string>> = {
  authenticatorRep: 'RepScreen',
  rep: 'RepScreen',
};
