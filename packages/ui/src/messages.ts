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
export function setUiTexts(text?: (key: UiMessageKey) => string | undefined): void {
  for (const key of Object.keys(uiMessages) as UiMessageKey[]) uiMessages[key] = text?.(key) ?? english[key];
}
