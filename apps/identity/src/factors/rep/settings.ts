import { z } from 'zod';
import { defineSettings } from '../settings-kit.ts';

/**
 * The representative's code has no settings of its own: its code's life is the console's
 * (REP_CODE_MINUTES) and its tries are the one-time codes' (FACTOR_*).
 */
export const settings = defineSettings({
  title: 'Representative code',
  schema: z.object({}),
  read: () => ({}),
});
