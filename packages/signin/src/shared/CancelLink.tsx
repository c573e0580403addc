import { Button } from '@gatehouse/ui';
import { t } from '../messages/index.ts';
import { useCancel } from './useCancel.ts';

/** The journey's Cancel (widget spec §4 "Cancel"), as every screen shows it. */
export function CancelLink() {
  const cancel = useCancel();
  return (
    <Button variant="link" onClick={cancel}>
      {t('page.cancel')}
    </Button>
  );
}
