import { Card } from '@gatehouse/ui';
import { useEffect, useRef } from 'react';
import { Redirect, useParams } from 'wouter';
import { Shell } from '../shell/Shell.tsx';
import { t } from '../texts.ts';
import { usePageTitle } from '../usePageTitle.ts';

/** The footer's pages: browser requirements, user agreement, privacy and security (two paragraphs each). */
const pages = ['browsers', 'agreement', 'privacy', 'security'] as const;
type Info = (typeof pages)[number];
const isInfo = (page: string): page is Info => (pages as readonly string[]).includes(page);

export function InfoPage() {
  const { page = '' } = useParams();
  const content = isInfo(page)
    ? { title: t(`info.${page}.title`), body: [t(`info.${page}.1`), t(`info.${page}.2`)] }
    : undefined;
  const heading = useRef<HTMLHeadingElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: each page moves focus to its heading when it opens
  useEffect(() => heading.current?.focus(), [page]);
  usePageTitle(content?.title ?? t('shell.signInTitle'));
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
          <a href="#/login">{t('page.backToSignIn')}</a>
        </p>
      </Card>
    </Shell>
  );
}
