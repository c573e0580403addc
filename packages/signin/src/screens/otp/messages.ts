import type catalog from '../../../messages/en.json';
import { translator } from '../../messages/index.ts';

/** One-time code screens (widget spec §2, §8), verbatim where quoted; headings per channel are ours. Loaded with these screens, not on the login route. */
export type OtpTextsKey = keyof (typeof catalog)['otp'];

export const tx = translator<OtpTextsKey>();
