import { Card } from '@gatehouse/ui';
import { messages } from '../messages.ts';
import { Shell } from '../shell/Shell.tsx';

/** Portal spec §2 "No-access screen". */
export function NoAccessPage() {
  return (
    <Shell>
      <Card width={448}>
        <h1 className="portal__page-heading">{messages.accessDenied}</h1>
        <p>{messages.checkNetwork}</p>
      </Card>
    </Shell>
  );
}
