import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { setUiTexts } from '../messages.ts';
import { RadioGroup } from '../radio-group/RadioGroup.tsx';
import { MaskedText, spokenMasks } from './MaskedText.tsx';

describe('masked phone numbers, read as the digits they end in', () => {
  afterEach(() => setUiTexts());

  it('a radio labelled by a masked number is named "number ending in" its digits, and shows the mask', () => {
    render(
      <RadioGroup
        id="to"
        name="to"
        legend="Which number should we send it to?"
        options={[
          { value: 'a', label: <MaskedText>(XXX) XXX-0143</MaskedText> },
          { value: 'b', label: <MaskedText>+44 XXXXXX7890</MaskedText> },
        ]}
      />,
    );
    const first = screen.getByRole('radio', { name: 'number ending in 0 1 4 3' });
    expect(screen.getByRole('radio', { name: 'number ending in 7 8 9 0' })).toBeTruthy();
    // On screen, the mask as the service sent it; hidden from screen readers.
    const label = document.querySelector(`label[for="${first.id}"]`)!;
    const shown = label.querySelector('[aria-hidden="true"]')!;
    expect(shown.textContent).toBe('(XXX) XXX-0143');
  });

  it('in a sentence: only the number is replaced, the rest is read as it is', () => {
    render(
      <p data-testid="line">
        <MaskedText>We sent the code to XXX-XXX-1234. It will expire after 30 minutes.</MaskedText>
      </p>,
    );
    const line = screen.getByTestId('line');
    const spoken = [...line.childNodes]
      .map((node) =>
        node instanceof HTMLElement
          ? (node.querySelector('.gh-visually-hidden')?.textContent ?? '')
          : node.textContent,
      )
      .join('');
    expect(spoken).toBe('We sent the code to number ending in 1 2 3 4. It will expire after 30 minutes.');
  });

  it('for labels and live regions: every masked form, never an e-mail, never a text without one', () => {
    expect(spokenMasks('Remove phone (XXX) XXX-0143')).toBe('Remove phone number ending in 0 1 4 3');
    expect(spokenMasks('Text message to ******0143')).toBe('Text message to number ending in 0 1 4 3');
    expect(spokenMasks('+44 XXXXXX7890 and XXX-XXX-1234')).toBe(
      'number ending in 7 8 9 0 and number ending in 1 2 3 4',
    );
    expect(spokenMasks('Remove e-mail j****n@example.com')).toBe('Remove e-mail j****n@example.com');
    expect(spokenMasks('a****12@bank.example')).toBe('a****12@bank.example');
    expect(spokenMasks('Enter XXXXXX')).toBe('Enter XXXXXX');
    const { container } = render(<MaskedText>Enter the code</MaskedText>);
    expect(container.innerHTML).toBe('Enter the code');
  });

  it('in the host language, its argument filled by the host catalog', () => {
    setUiTexts((key, ...args) => (key === 'numberEndingIn' ? `número terminado en ${args[0]}` : undefined));
    expect(spokenMasks('Llamada de voz al ******0143')).toBe('Llamada de voz al número terminado en 0 1 4 3');
  });
});
