/**
 * Every text the components show or announce by themselves, once, keyed. A host can pass its own
 * text through each component's props; these are the defaults.
 */
export const uiMessages = {
  loading: 'Loading…',
  loadingSecondary: 'This could take a moment.',
  errorPrefix: 'Error:',
  optional: '(optional)',
  show: 'Show',
  hide: 'Hide',
  showPassword: 'Show password',
  hidePassword: 'Hide password',
  passwordShown: 'Your password is visible',
  passwordHidden: 'Your password is hidden',
  dismiss: 'Dismiss',
  close: 'Close',
  errorSummaryTitle: 'There is a problem',
  newWindow: '(opens in a new window)',
  codePlaceholder: 'XXXXXX',
  critical: 'Error',
  warning: 'Warning',
  info: 'Information',
  confirm: 'Success',
} as const;
export type UiMessageKey = keyof typeof uiMessages;
