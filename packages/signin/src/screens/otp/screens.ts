/** The screens of this factor and their texts: loaded on demand, in the screens' chunk (screens/lazy.ts). */
export { OtpCodeScreen } from './OtpCodeScreen.tsx';
export { OtpContactScreen } from './OtpContactScreen.tsx';

export const texts = import.meta.glob('../../../messages/*.json', {
  query: { groups: 'otp' },
  import: 'default',
});
