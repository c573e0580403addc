import { Button } from '@gatehouse/ui';
import { useRef } from 'react';
import { useWidget } from '../../context.tsx';
import { t } from '../../messages/index.ts';
import { ScreenHeading } from '../../shared/Heading.tsx';
import { useCancel } from '../../shared/useCancel.ts';
import { useHeadingFocus } from '../../shared/useHeadingFocus.ts';

/** The generic error card: 'Something went wrong', with the way back per journey (spec §4 Cancel). */
export function ErrorScreen({ onBack }: { onBack?: () => void }) {
  const { config, idPrefix } = useWidget();
  const cancel = useCancel();
  const headingRef = useRef<HTMLHeadingElement>(null);
  useHeadingFocus(headingRef);
  const back = () => {
    onBack?.();
    cancel();
  };
  return (
    <section className="gh-signin__screen" aria-labelledby={`${idPrefix}-error-heading`}>
      <ScreenHeading id={`${idPrefix}-error-heading`} ref={headingRef}>
        {t('page.somethingWentWrong')}
      </ScreenHeading>
      <p>{t('page.cantComplete')}</p>
      <p>{t('page.supportHours')}</p>
      <Button variant="primary" onClick={back}>
        {config.journey === 'LOGIN' ? t('page.backToLogin') : t('page.cancel')}
      </Button>
    </section>
  );
}
