import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Card } from '../card/Card.tsx';
import { desktopMinWidth, PageLayout } from './PageLayout.tsx';

describe('PageLayout', () => {
  it('gives header, main and footer landmarks around the card', () => {
    render(
      <PageLayout header="Gatehouse Bank" footer="© Gatehouse">
        <Card>Sign in</Card>
      </PageLayout>,
    );
    expect(screen.getByRole('banner').textContent).toBe('Gatehouse Bank');
    expect(screen.getByRole('main').id).toBe('main');
    expect(screen.getByRole('main').textContent).toBe('Sign in');
    expect(screen.getByRole('contentinfo').textContent).toBe('© Gatehouse');
  });

  it('switches to the desktop layout at 512 px', () => {
    expect(desktopMinWidth).toBe(512);
  });

  it('embedded: no landmarks of its own', () => {
    render(
      <PageLayout embedded header="Bank" footer="Legal">
        <Card>Sign in</Card>
      </PageLayout>,
    );
    expect(screen.queryByRole('main')).toBeNull();
    expect(screen.queryByRole('banner')).toBeNull();
    expect(screen.queryByRole('contentinfo')).toBeNull();
    expect(screen.getByText('Sign in')).toBeTruthy();
  });
});
