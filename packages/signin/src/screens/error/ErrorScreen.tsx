import { Button } from '@gatehouse/ui';
import { useRef } from 'react';
import { useNavigate } from 'react-router';
import { useWidget } from '../../context.tsx';
import { t } from '../../messages/index.ts';
import { routes } from '../../routes.ts';
import { ScreenHeading } from '../../shared/Heading.tsx';
import { useHeadingFocus } from '../../shared/useHeadingFocus.ts';

/** The generic error card: 'Something went wrong', with the way back per journey (spec §4 Cancel). */
export function ErrorScreen({ onBack }: { onBack?: () => void }) {
  const { config, idPrefix } = useWidget();
  const navigate = useNavigate();
  const headingRef = useRef<HTMLHeadingElement>(null);
  useHeadingFocus(headingRef);
  const back = () => {
    onBack?.();
    if (config.journey === 'LOGIN') navigate(routes.login);
    else {
      config.onEvent?.({ type: 'cancel' });
      config.onCancel?.();
    }
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
