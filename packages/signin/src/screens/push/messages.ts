import { pushMessages } from '@gatehouse/contract/client';
import { translator } from '../../messages/index.ts';

/**
 * Push screens (widget spec §2, §4, §8), verbatim where the spec quotes them; the rest is ours
 * (docs/decisions/022-push-and-device.md, "Texts"). Loaded with these screens, not on the login route.
 */
const pushTexts = {
  /** {0}: the push app's name (config pushAppName). */
  'push.startHeading': "We'll send a notification to the {0} app on your mobile device",
  'push.send': 'Send notification',
  'push.sending': 'Sending the notification…',
  'push.trustDevice': "Don't ask me again on this device",
  'push.sentHeading': pushMessages.pushSent,
  /** The spec's 'Open the notification ... and tap' with the app named: {0} is pushAppName. */
  'push.sentText': 'Open the notification in the {0} app and tap "Yes, it\'s me."',
  /** Number matching (decision 022): {0} is the two-digit number the device offers among three. */
  'push.number': 'Tap {0} on your mobile device.',
  // Widget spec §8 'Push failure': each error state's heading.
  'push.failed': "We couldn't confirm your identity. Please try again.",
  'push.expired': 'Too much time has passed. Please try again.',
  'push.limit': pushMessages.pushLimitReached,
  'push.resend': 'Resend notification',
  'push.anotherWay': 'Try another way',
  // What the device shows as the request (transactionDescription), by journey.
  'push.descriptionLogin': 'Sign-in request',
  'push.descriptionStepUp': 'Identity check',
  // Push denied, by journey (decision 022); the login body ends with error.pushBlocked.
  'push.deniedHeadingLogin': 'Your login was denied',
  'push.deniedBodyLogin': "You told us this wasn't you, so we stopped this login.",
  'push.deniedHeadingStepUp': "We couldn't verify your identity",
  'push.deniedBodyStepUp': "You told us this wasn't you, so we stopped this request.",
  'push.goBack': 'Go back',
  'push.backToHomepage': 'Back to homepage',
} as const;

export type PushTextsKey = keyof typeof pushTexts;

export const tx = translator(pushTexts);
