import {
  type ComponentPropsWithoutRef,
  createContext,
  forwardRef,
  type ReactNode,
  useContext,
  useEffect,
} from 'react';
import { cx } from '../internal/cx.ts';
import { useEnum } from '../internal/warnUnknown.ts';
import './List.css';

export const listStyles = ['none', 'ordered', 'unordered'] as const;
export type ListStyle = (typeof listStyles)[number];
/**
 * never: one item per line (default); always: items in a row, wrapping; desktop: one per line on
 * narrow screens, in a row from the 512 px desktop breakpoint.
 */
export const listInlineModes = ['never', 'always', 'desktop'] as const;
export type ListInline = (typeof listInlineModes)[number];

const ParentList = createContext<ListInline | null>(null);

export interface ListProps extends Omit<ComponentPropsWithoutRef<'ul'>, 'children'> {
  /** Default 'unordered'. */
  listStyle?: ListStyle;
  /** Default 'never'. */
  inline?: ListInline;
  children?: ReactNode;
}

/**
 * A list of ListItem. A List inside a ListItem is a nested list group, allowed only when the
 * outer list is never inline (a console warning otherwise).
 */
export const List = forwardRef<HTMLUListElement & HTMLOListElement, ListProps>(function List(
  { listStyle, inline, className, children, ...rest },
  ref,
) {
  const styleValue = useEnum('List', 'listStyle', listStyle, listStyles, 'unordered');
  const inlineValue = useEnum('List', 'inline', inline, listInlineModes, 'never');
  const parent = useContext(ParentList);
  useEffect(() => {
    if (import.meta.env.DEV && parent !== null && parent !== 'never') {
      console.warn(
        `[@gatehouse/ui] List: a nested list group is only allowed when the outer list has inline="never" (it has "${parent}").`,
      );
    }
  }, [parent]);
  const Tag = styleValue === 'ordered' ? 'ol' : 'ul';
  return (
    <ParentList.Provider value={inlineValue}>
      <Tag
        ref={ref}
        className={cx('gh-list', className)}
        data-list-style={styleValue}
        data-inline={inlineValue}
        // Safari drops list semantics with list-style: none unless the role is explicit.
        role={styleValue === 'none' ? 'list' : undefined}
        {...rest}
      >
        {children}
      </Tag>
    </ParentList.Provider>
  );
});

export type ListItemProps = ComponentPropsWithoutRef<'li'>;

export const ListItem = forwardRef<HTMLLIElement, ListItemProps>(function ListItem(
  { className, ...rest },
  ref,
) {
  return <li ref={ref} className={cx('gh-list__item', className)} {...rest} />;
});
