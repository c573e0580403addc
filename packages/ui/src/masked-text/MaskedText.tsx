import { Fragment } from 'react';
import { uiText } from '../messages.ts';
import { VisuallyHidden } from '../visually-hidden/VisuallyHidden.tsx';

/**
 * A masked phone number as the service shows one: a country code at most, then groups of X or *
 * (with brackets, spaces or hyphens), then the last digits: '(XXX) XXX-0143', '+44 XXXXXX7890',
 * '******0143', 'XXX-XXX-1234'. Not a masked e-mail ('j****n@example.com', 'a****12@bank.com').
 */
const maskedNumber = /(?:\+\d{1,3}[ -]?)?(?:\(?[X*]{2,}\)?[ -]?)+(\d{2,4})(?![\d@A-Za-z])/g;

/** How a masked number is read: 'number ending in 0 1 4 3' (digit by digit). */
export function spokenNumber(lastDigits: string): string {
  return uiText('numberEndingIn', lastDigits.split('').join(' '));
}

/** `text` with each masked number in it as it is read: for `aria-label`s and live regions. */
export function spokenMasks(text: string): string {
  return text.replace(maskedNumber, (_, digits: string) => spokenNumber(digits));
}

/**
 * Shows `children` as it is, but a screen reader reads each masked number in it as 'number
 * ending in 0 1 4 3' instead of 'X X X X X X 0 1 4 3' (the mask is `aria-hidden`, the words are
 * visually hidden). Text without a masked number is rendered unchanged.
 */
export function MaskedText({ children }: { children: string }) {
  const parts: Array<string | { shown: string; digits: string }> = [];
  let last = 0;
  for (const match of children.matchAll(maskedNumber)) {
    if (match.index > last) parts.push(children.slice(last, match.index));
    parts.push({ shown: match[0], digits: match[1] as string });
    last = match.index + match[0].length;
  }
  if (last === 0) return <>{children}</>;
  if (last < children.length) parts.push(children.slice(last));
  return (
    <>
      {parts.map((part, index) =>
        typeof part === 'string' ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one text, in order.
          <Fragment key={index}>{part}</Fragment>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one text, in order.
          <span key={index} className="gh-masked-number">
            <span aria-hidden="true">{part.shown}</span>
            <VisuallyHidden>{spokenNumber(part.digits)}</VisuallyHidden>
          </span>
        ),
      )}
    </>
  );
}
