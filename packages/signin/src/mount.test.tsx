import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type SignInConfig, SignInConfigError } from './config.ts';
import { mount } from './mount.tsx';

const answer = (code: number, message: string) =>
  new Response(JSON.stringify({ responseBaseInfo: { requestId: 'r', status: { code, message } } }), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });

describe('mount(element, config)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    document.body.innerHTML = '';
  });

  it('names every wrong field of a bad config, before rendering anything', () => {
    const element = document.createElement('div');
    const bad = {
      appName: '',
      journey: 'SIDEWAYS',
      colour: 'red',
      onFinish: 'nope',
    } as unknown as SignInConfig;
    expect(() => mount(element, bad)).toThrow(SignInConfigError);
    expect(() => mount(element, bad)).toThrow(
      'Gatehouse sign-in widget: invalid config: unknown field(s) colour; appId: is required (a non-empty string); appName: must be a non-empty string; journey: must be one of LOGIN, STEPUP; onFinish: must be a function',
    );
    expect(element.innerHTML).toBe('');
    expect(() => mount(null as unknown as Element, { appId: 'a', appName: 'b', onFinish: () => {} })).toThrow(
      'mount() needs a DOM element',
    );
  });

  it('runs two widgets on one page without interference, and unmount leaves nothing behind', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => answer(1200, 'User Not Identified')),
    );
    const first = document.body.appendChild(document.createElement('div'));
    const second = document.body.appendChild(document.createElement('div'));
    let unmountFirst = () => {};
    let unmountSecond = () => {};
    await act(async () => {
      unmountFirst = mount(first, { appId: 'ONE', appName: 'One', onFinish: () => {} });
      unmountSecond = mount(second, { appId: 'TWO', appName: 'Two', onFinish: () => {} });
    });
    const a = within(first).getByRole('textbox', { name: /Username/ }) as HTMLInputElement;
    const b = within(second).getByRole('textbox', { name: /Username/ }) as HTMLInputElement;
    expect(a.id).not.toBe(b.id);
    const ids = [...document.querySelectorAll('[id]')].map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);

    await act(async () => {
      within(first).getByRole('button', { name: 'Log in' }).click();
    });
    expect(within(first).getByText('Enter your username.')).toBeTruthy();
    expect(within(second).queryByText('Enter your username.')).toBeNull();

    await act(async () => unmountFirst());
    expect(first.innerHTML).toBe('');
    expect(within(second).getByRole('heading', { name: 'Log in to your account' })).toBeTruthy();
    await act(async () => unmountSecond());
    expect(second.innerHTML).toBe('');
    await waitFor(() => expect(screen.queryByRole('heading')).toBeNull());
  });
});
