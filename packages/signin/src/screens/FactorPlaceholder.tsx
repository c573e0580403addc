import { Button } from '@gatehouse/ui';
import { t } from '../messages/index.ts';
import { useCancel } from '../shared/useCancel.ts';

/**
 * Where a second-factor screen will plug in. Until it does it says nothing to the customer
 * (issue 4): no heading, no message, only the journey's way out.
 */
export function FactorPlaceholder() {
  const cancel = useCancel();
  return (
    <section className="gh-signin__screen" aria-busy="true">
      <Button variant="link" onClick={cancel}>
        {t('page.cancel')}
      </Button>
    </section>
  );
}
