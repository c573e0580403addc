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
});
