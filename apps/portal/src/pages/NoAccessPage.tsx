import { Card } from '@gatehouse/ui';
import { useEffect, useRef } from 'react';
import { Shell } from '../shell/Shell.tsx';
import { t } from '../texts.ts';
import { usePageTitle } from '../usePageTitle.ts';

/** Portal spec §2 "No-access screen". */
export function NoAccessPage() {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  usePageTitle(t('page.accessDenied'));
  return (
    <Shell>
      <Card width={448}>
        <h1 className="portal__page-heading" tabIndex={-1} ref={heading}>
          {t('page.accessDenied')}
        </h1>
        <p>{t('page.checkNetwork')}</p>
      </Card>
    </Shell>
  );
}
