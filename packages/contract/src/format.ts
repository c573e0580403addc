/**
 * Fills `{0}`-style placeholders. A module of its own: the login routes use it, and a bundler keeps
 * a module's other statements with it (the message groups of messages.ts stay with the pages that
 * read them).
 */
export function format(template: string, ...args: Array<string | number>): string {
  return template.replace(/\{(\d+)\}/g, (whole, i: string) => {
    const value = args[Number(i)];
    return value === undefined ? whole : String(value);
  });
}
