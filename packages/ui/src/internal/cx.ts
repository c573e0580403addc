/** Joins class names, skipping falsy ones. */
export function cx(...names: Array<string | false | null | undefined>): string {
  return names.filter(Boolean).join(' ');
}

/** Joins ids for aria-describedby; undefined when there are none. */
export function ids(...values: Array<string | false | null | undefined>): string | undefined {
  const list = values.filter(Boolean).join(' ').trim();
  return list === '' ? undefined : list;
}
