import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AppShell } from './AppShell.tsx';

describe('AppShell', () => {
  it('gives a skip button first, then the header and main landmarks, then the footer', () => {
    render(
      <AppShell skipText="Skip to content" header="Gatehouse Bank" footer={<footer>© Gatehouse</footer>}>
        <h1>Security</h1>
      </AppShell>,
    );
    const order = [
      screen.getByRole('button', { name: 'Skip to content' }),
      screen.getByRole('banner'),
      screen.getByRole('main'),
      screen.getByRole('contentinfo'),
    ];
    order.reduce((before, after) => {
      expect(before.compareDocumentPosition(after) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
      return after;
    });
    expect(screen.getByRole('banner').textContent).toBe('Gatehouse Bank');
    expect(screen.getByRole('main').id).toBe('main');
    expect(screen.getByRole('main').textContent).toBe('Security');
  });

  it('the skip button moves the focus to the main landmark (keyboard only)', async () => {
    const user = userEvent.setup();
    render(
      <AppShell skipText="Skip to content" header={<a href="#/codes">Codes</a>}>
        <p>Page</p>
      </AppShell>,
    );
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Skip to content' }));
    await user.keyboard('{Enter}');
    expect(document.activeElement).toBe(screen.getByRole('main'));
  });

  it('keeps the app its own root class beside the shared one', () => {
    const { container } = render(
      <AppShell className="console" skipText="Skip" header="Console">
        page
      </AppShell>,
    );
    expect((container.firstElementChild as HTMLElement).className).toBe('gh-shell console');
  });

  it('has no footer unless the app gives one', () => {
    render(
      <AppShell skipText="Skip" header="Device">
        page
      </AppShell>,
    );
    expect(screen.queryByRole('contentinfo')).toBeNull();
  });
});
