import type { Contact } from '@gatehouse/contract/client';
import type { CallName } from '../../api/calls.ts';
import { otpChannelsKey } from '../authenticator/AuthenticatorEntry.tsx';
import { tx } from './messages.ts';

/** The channels of the one-time code factor and their calls (widget spec §7). */
export type Channel = 'sms' | 'voice' | 'email' | 'rep';

export const sendCall: Record<Exclude<Channel, 'rep'>, CallName> = {
  sms: 'otpSendSms',
  voice: 'otpSendVoice',
  email: 'otpSendEmail',
};
export const checkCall: Record<Channel, CallName> = {
  sms: 'otpCheckSms',
  voice: 'otpCheckVoice',
  email: 'otpCheckEmail',
  rep: 'otpCheckRep',
};
export type Contacts = { phone: Contact[]; email: Contact[] };
export type Selected = { type: Contact['type']; value: string; label: string; channel: Channel };

/** Navigation state between the contact and code screens (widget spec §3). */
export type OtpNavState = {
  contacts?: Contacts;
  selectedContact?: Selected;
  carrierOutage?: boolean;
  ruleData?: { carrierOutage?: boolean };
  backButtonEnabled?: boolean;
  switchToEmailOTP?: boolean;
  otpCallRep?: boolean;
};

/** The send payload of widget spec §3: the e-mail, or the phone (text also the message template). */
export function sendBody(channel: Exclude<Channel, 'rep'>, contact: string, businessSMSText = '') {
  if (channel === 'email') return { email: contact };
  if (channel === 'sms') return { phone: contact, message: tx('otp.smsTemplate', businessSMSText) };
  return { phone: contact };
}

/** The one-time-code channels allowed (by the server, or the host for step-up), as the entry kept them. */
export function allowedChannels(idPrefix: string): Set<string> {
  try {
    const stored = JSON.parse(sessionStorage.getItem(otpChannelsKey(idPrefix)) ?? '[]') as unknown;
    return new Set(Array.isArray(stored) ? stored.filter((v): v is string => typeof v === 'string') : []);
  } catch {
    return new Set();
  }
}
