/** The screens of this factor and their texts: loaded on demand, in the screens' chunk (screens/lazy.ts). */
export { PushDeniedScreen } from './PushDeniedScreen.tsx';
export { PushScreen } from './PushScreen.tsx';

export const texts = import.meta.glob('../../../messages/*.json', {
  query: { groups: 'push' },
  import: 'default',
});

/** The screen of each of its routes (route name -> export above), read off the login route (screens/Routes.tsx). */
export const screenNames: Readonly<Record<string, string>> = {
  authenticatorPush: 'PushScreen',
  push: 'PushScreen',
  authenticatorPushDenied: 'PushDeniedScreen',
  pushDenied: 'PushDeniedScreen',
};
