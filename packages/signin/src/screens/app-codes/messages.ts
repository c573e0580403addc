import { translator } from '../../messages/index.ts';

/**
 * The token app and authenticator app screens (widget spec §2, §5), verbatim where the spec
 * quotes them; the parameters are mapped in docs/decisions/024-token-and-authenticator-app.md
 * ("Widget"). Loaded with these screens, never on the login route.
 */
const appCodeTexts = {
  /** {0}: the token app's name (config tokenAppName, default 'VIP'). */
  'token.heading': '{0} access code',
  'token.prompt': 'Enter the 6-digit security code from the {0} Access mobile app.',
  /** {0}: tokenAppName; {1}: the provider's name (businessSMSText) or 'your institution'; {2}: ' at ' and repPhone, or ''. */
  'token.help': 'If you are having difficulties with your {0} Access security code, please call {1}{2}.',
  'token.institution': 'your institution',
  'token.atPhone': ' at {0}',
  'token.securityCode': 'Security code',
  'token.submit': 'Submit',
  'token.checking': 'Checking the code…',
  'token.trustDevice': "Don't ask me again on this device",
  'sync.heading': 'We need to re-sync',
  'sync.text': 'Enter two security codes in a row from your {0} Access mobile app.',
  'sync.first': 'First security code',
  'sync.second': 'Second security code',
  'totp.heading': 'Enter the code from your authenticator app',
  /** {0}: the provider's name (businessSMSText) or 'your institution'. */
  'totp.text': 'This 6-digit will confirm the connection between your authenticator app and {0}.',
  'totp.continue': 'Continue',
} as const;

export type AppCodeTextsKey = keyof typeof appCodeTexts;

export const tx = translator(appCodeTexts);
