import { factorMessages, smsTemplate } from '@gatehouse/contract/client';
import { translator } from '../../messages/index.ts';

/** One-time code screens (widget spec §2, §8), verbatim where quoted; headings per channel are ours. Loaded with these screens, not on the login route. */
const otpTexts = {
  'otp.heading': 'Verify your identity',
  // The server sends only this text (SMS_SENDER_NAMES): one copy, in the contract.
  'otp.smsTemplate': smsTemplate,
  'otp.whichNumber': 'Which number should we send it to?',
  'otp.whichEmail': 'Which email should we send it to?',
  'otp.oneNumber': "We'll send it to this number.",
  'otp.oneEmail': 'This is the email address we have on file for you.',
  'otp.numbers': 'Phone numbers',
  'otp.emails': 'Email addresses',
  'otp.textMe': 'Text me the code',
  'otp.callMe': 'Call me with the code',
  'otp.emailMe': 'Email me the code',
  'otp.sending': 'Sending the code…',
  'otp.cantReceive': "Can't receive the code?",
  'otp.anotherWay': 'Get the code another way',
  'otp.back': 'Back',
  'otp.recentlyAdded':
    "Your recently added contact information won't appear right away. You need to wait 2–3 days before your new {0} can be used to verify your identity.",
  'otp.phoneNumber': 'phone number',
  'otp.emailAddress': 'email address',
  'otp.codeHeading.sms': 'Enter the code we texted you',
  'otp.codeHeading.voice': 'Enter the code from our call',
  'otp.codeHeading.email': 'Enter the code we emailed you',
  'otp.codeHeading.rep': 'Enter the code from the representative',
  'otp.securityCode': 'Security code',
  'otp.submit': 'Submit',
  'otp.checking': 'Checking the code…',
  'otp.resend': 'Resend code',
  'otp.resent': 'We sent you a new code.',
  'otp.trustDevice': "Don't ask me again on this device",
  'otp.sentTo': 'We sent the code to {0}. It will expire after 30 minutes.',
  'otp.callInstead': 'call me with the code',
  'otp.anotherPhone': 'Try another phone number',
  'otp.outage': factorMessages.carrierOutage,
  'otp.outageSeveral': 'Try another phone number.',
  'otp.outageOne': 'Ask us to call you with the code, or get it by email.',
  'otp.repHeading': 'Call us to verify your identity',
  'otp.repText': 'A representative will verify your identity and provide a temporary security code.',
  'otp.repCall': 'Call {0}',
  'otp.continue': 'Continue',
  'otp.limitReached': factorMessages.factorLimitReached,
} as const;

export type OtpTextsKey = keyof typeof otpTexts;

export const tx = translator(otpTexts);
