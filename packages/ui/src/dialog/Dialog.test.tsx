import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Button } from '../button/Button.tsx';
import { Dialog, DialogClose } from './Dialog.tsx';

function Example({ onOpenChange }: { onOpenChange?: (open: boolean) => void }) {
  return (
    <>
      <Button>Before</Button>
      <Dialog
        trigger={<Button>Sign out</Button>}
        title="Sign out?"
        description="You will need your password to sign in again."
        onOpenChange={onOpenChange}
        footer={
          <>
            <DialogClose asChild>
              <Button variant="secondary">Stay signed in</Button>
            </DialogClose>
            <Button variant="danger">Sign out now</Button>
          </>
        }
      />
    </>
  );
}

describe('Dialog', () => {
  it('is a named, described modal dialog that takes focus', async () => {
    const user = userEvent.setup();
    render(<Example />);
    await user.click(screen.getByRole('button', { name: 'Sign out' }));
    const dialog = screen.getByRole('dialog', { name: 'Sign out?' });
    expect(dialog.getAttribute('aria-describedby')).toBe(
      screen.getByText('You will need your password to sign in again.').id,
    );
    expect(dialog.contains(document.activeElement)).toBe(true);
  });

  it('traps focus: Tab and Shift+Tab cycle inside', async () => {
    const user = userEvent.setup();
    render(<Example />);
    await user.click(screen.getByRole('button', { name: 'Sign out' }));
    const dialog = screen.getByRole('dialog');
    for (let i = 0; i < 5; i++) {
      await user.tab();
      expect(dialog.contains(document.activeElement)).toBe(true);
    }
    for (let i = 0; i < 5; i++) {
      await user.tab({ shift: true });
      expect(dialog.contains(document.activeElement)).toBe(true);
    }
  });

  it('Escape closes it and focus returns to the trigger', async () => {
    const user = userEvent.setup();
    const onOpenChange = vi.fn();
    render(<Example onOpenChange={onOpenChange} />);
    const trigger = screen.getByRole('button', { name: 'Sign out' });
    await user.click(trigger);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(trigger);
    expect(onOpenChange.mock.calls).toEqual([[true], [false]]);
  });

  it('a DialogClose button and the Close icon close it', async () => {
    const user = userEvent.setup();
    render(<Example />);
    await user.click(screen.getByRole('button', { name: 'Sign out' }));
    await user.click(screen.getByRole('button', { name: 'Stay signed in' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Sign out' }));
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('locks page scrolling while open without injecting a <style> element', async () => {
    const user = userEvent.setup();
    render(<Example />);
    const styles = document.querySelectorAll('style').length;
    await user.click(screen.getByRole('button', { name: 'Sign out' }));
    expect(document.documentElement.style.overflow).toBe('hidden');
    expect(document.querySelectorAll('style').length).toBe(styles);
    await user.keyboard('{Escape}');
    expect(document.documentElement.style.overflow).toBe('');
  });
});
