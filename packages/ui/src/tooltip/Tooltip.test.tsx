import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Button } from '../button/Button.tsx';
import { Tooltip } from './Tooltip.tsx';

describe('Tooltip', () => {
  it('shows on keyboard focus, describes the trigger, and hides on Escape', async () => {
    const user = userEvent.setup();
    render(
      <Tooltip content="We never share your number">
        <Button variant="link">Why?</Button>
      </Tooltip>,
    );
    await user.tab();
    const tip = await screen.findByRole('tooltip');
    expect(tip.textContent).toContain('We never share your number');
    const trigger = screen.getByRole('button', { name: 'Why?' });
    expect(trigger.getAttribute('aria-describedby')).toBe(tip.id);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('tooltip')).toBeNull();
  });

  it('shows on hover; Escape hides it', async () => {
    const user = userEvent.setup();
    render(
      <Tooltip content="Help text" delay={0}>
        <Button>Hover me</Button>
      </Tooltip>,
    );
    await user.hover(screen.getByRole('button', { name: 'Hover me' }));
    expect((await screen.findByRole('tooltip')).textContent).toContain('Help text');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('tooltip')).toBeNull();
  });
});
