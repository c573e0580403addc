import { Card } from '@gatehouse/ui';
import { useEffect, useRef } from 'react';
import { messages } from '../messages.ts';
import { Shell } from '../shell/Shell.tsx';
import { usePageTitle } from '../usePageTitle.ts';

/** Portal spec §2 "No-access screen". */
export function NoAccessPage() {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  usePageTitle(messages.accessDenied);
  return (
    <Shell>
      <Card width={448}>
        <h1 className="portal__page-heading" tabIndex={-1} ref={heading}>
          {messages.accessDenied}
        </h1>
        <p>{messages.checkNetwork}</p>
      </Card>
    </Shell>
  );
}
