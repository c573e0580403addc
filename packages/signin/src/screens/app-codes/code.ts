import { limits } from '@gatehouse/contract/client';
import { t } from '../../messages/index.ts';

/** Widget spec §5: an empty code, or one of fewer than 6 digits; null when the code is whole. */
export const codeProblem = (code: string): string | null =>
  !code.trim() ? t('error.emptyCode') : code.length !== limits.codeLength ? t('error.shortCode') : null;
