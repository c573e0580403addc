/** Text for an HTML page of the provider's (a value escaped for element content and attributes). */
export const html = (value: unknown): string =>
  String(value ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
