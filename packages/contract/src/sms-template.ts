import { phone } from '../messages/en.json';

/**
 * The text message of a one-time code (widget spec §2 "OTP send payload"); {0} the application's
 * short name (the widget's businessSMSText). The server sends only this text, with a short name it
 * is configured to allow (SMS_SENDER_NAMES), whatever a request asks for. A module of its own:
 * reading the group is a statement a bundler keeps wherever its module goes (off the login routes).
 */
export const smsTemplate = phone.smsTemplate;
