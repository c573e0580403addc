import { ui as english } from '../messages/en.json';

/**
 * Every text the components show or announce by themselves, once, keyed
 * (packages/ui/messages/<language>.json, docs/decisions/029-languages.md). A host can pass its own
 * text through each component's props; these are the defaults: English, until the host gives the
 * page's language's (`setUiTexts`), which arrive with the host's own first texts (the `include`
 * of its catalog import), not as one more request.
 */
export type UiMessageKey = keyof typeof english;
export const uiMessages: Record<UiMessageKey, string> = { ...english };

/**
 * Makes the components' default texts those `text` gives (one language per page: the host's); a
 * key it has no text for, and every key without `text`, is English.
 */
export function setUiTexts(text?: UiTexts): void {
  hostTexts = text;
  for (const key of Object.keys(uiMessages) as UiMessageKey[]) uiMessages[key] = text?.(key) ?? english[key];
}

/** The host's texts: a key (and its `{0}`-style arguments) to the text, or undefined. */
export type UiTexts = (key: UiMessageKey, ...args: Array<string | number>) => string | undefined;
let hostTexts: UiTexts | undefined;

/** A component text with `{0}`-style arguments filled, in the host's language (else English). */
export function uiText(key: UiMessageKey, ...args: Array<string | number>): string {
  return (
    hostTexts?.(key, ...args) ??
    english[key].replace(/\{(\d+)\}/g, (_, index: string) => String(args[Number(index)] ?? ''))
  );
}
