import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Button } from '../button/Button.tsx';
import { Popover } from './Popover.tsx';

describe('Popover', () => {
  it('opens from its trigger, takes focus, closes on Escape and gives focus back', async () => {
    const user = userEvent.setup();
    render(
      <Popover trigger={<Button variant="secondary">Where is my code?</Button>} title="Your security code">
        <p>It is in the text message we sent.</p>
      </Popover>,
    );
    const trigger = screen.getByRole('button', { name: 'Where is my code?' });
    expect(trigger.getAttribute('aria-expanded')).toBe('false');
    await user.click(trigger);
    expect(trigger.getAttribute('aria-expanded')).toBe('true');
    const dialog = screen.getByRole('dialog', { name: 'Your security code' });
    expect(dialog.textContent).toContain('It is in the text message we sent.');
    expect(dialog.contains(document.activeElement)).toBe(true);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(trigger);
  });

  it('closes with its Close button', async () => {
    const user = userEvent.setup();
    render(<Popover trigger={<Button>Open</Button>} title="Info" defaultOpen />);
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('keeps no Tab loop: Tab past its last control goes on after the trigger, Shift+Tab back to the trigger, and it closes', async () => {
    const user = userEvent.setup();
    render(
      <>
        <Popover trigger={<Button variant="secondary">Where is my code?</Button>} title="Your security code">
          <p>
            It is in the text message we sent. <a href="#help">Help</a>
          </p>
        </Popover>
        <button type="button">Next on the page</button>
      </>,
    );
    const trigger = screen.getByRole('button', { name: 'Where is my code?' });
    await user.click(trigger);
    const dialog = screen.getByRole('dialog', { name: 'Your security code' });
    screen.getByRole('link', { name: 'Help' }).focus();
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Next on the page' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(dialog.isConnected).toBe(false);
    await user.click(trigger);
    screen.getByRole('button', { name: 'Close' }).focus();
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(trigger);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
