import { Card } from '@gatehouse/ui';
import { useEffect, useRef } from 'react';
import { Redirect, useParams } from 'wouter';
import { Shell } from '../shell/Shell.tsx';
import { usePageTitle } from '../usePageTitle.ts';

/** The footer's pages: browser requirements, user agreement, privacy and security. */
const pages: Record<string, { title: string; body: string[] }> = {
  browsers: {
    title: 'Browser requirements',
    body: [
      'The portal works in the current and previous major versions of Chrome, Edge, Firefox and Safari, with JavaScript and cookies enabled.',
      'It follows WCAG 2.2 AA and works with a keyboard alone and with screen readers.',
    ],
  },
  agreement: {
    title: 'User agreement',
    body: [
      'The portal is for authorised users of Prime Services only. Keep your username and password to yourself and sign out when you finish.',
      'Activity in secured areas is recorded for your protection.',
    ],
  },
  privacy: {
    title: 'Privacy',
    body: [
      'We use the details you give us to confirm your identity and to keep your account secure.',
      'Sign-in cookies are strictly necessary and expire when you sign out or after four hours without activity.',
    ],
  },
  security: {
    title: 'Security',
    body: [
      'We will never ask for your password or a security code by phone or e-mail.',
      'If you think someone else knows your password, contact login support straight away.',
    ],
  },
};

export function InfoPage() {
  const { page = '' } = useParams();
  const content = pages[page];
  const heading = useRef<HTMLHeadingElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: each page moves focus to its heading when it opens
  useEffect(() => heading.current?.focus(), [page]);
  usePageTitle(content?.title ?? 'Sign in');
  if (!content) return <Redirect to="/login" replace />;
  return (
    <Shell>
      <Card width={448}>
        <h1 className="portal__page-heading" tabIndex={-1} ref={heading}>
          {content.title}
        </h1>
        {content.body.map((p) => (
          <p key={p}>{p}</p>
        ))}
        <p>
          <a href="#/login">Back to sign in</a>
        </p>
      </Card>
    </Shell>
  );
}
