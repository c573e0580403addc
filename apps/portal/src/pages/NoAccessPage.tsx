import { Card } from '@gatehouse/ui';
import { useEffect, useRef } from 'react';
import { Shell } from '../shell/Shell.tsx';
import { usePageTitle } from '../usePageTitle.ts';
import { pageMessages } from './page-messages.ts';

/** Portal spec §2 "No-access screen". */
export function NoAccessPage() {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  usePageTitle(pageMessages.accessDenied);
  return (
    <Shell>
      <Card width={448}>
        <h1 className="portal__page-heading" tabIndex={-1} ref={heading}>
          {pageMessages.accessDenied}
        </h1>
        <p>{pageMessages.checkNetwork}</p>
      </Card>
    </Shell>
  );
}
