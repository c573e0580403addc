import { limits } from '@gatehouse/contract/client';
import { TextInput, type TextInputProps } from '@gatehouse/ui';
import { forwardRef } from 'react';

type FieldProps = Omit<TextInputProps, 'type'>;

/** A username field: required, no autocorrection, limited to the spec's 50 characters (§9). */
export const UsernameInput = forwardRef<HTMLInputElement, FieldProps>(function UsernameInput(props, ref) {
  return (
    <TextInput
      ref={ref}
      required
      autoComplete="username"
      autoCapitalize="none"
      spellCheck={false}
      maxLength={limits.usernameInputMax}
      {...props}
    />
  );
});

/** A current-password field with show/hide (the library's password input). */
export const PasswordInput = forwardRef<HTMLInputElement, FieldProps>(function PasswordInput(props, ref) {
  return (
    <TextInput
      ref={ref}
      type="password"
      required
      autoComplete="current-password"
      maxLength={limits.passwordInputMax}
      {...props}
    />
  );
});
