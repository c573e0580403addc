import {
  type ComponentPropsWithoutRef,
  forwardRef,
  type ReactNode,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { cx } from '../internal/cx.ts';
import { duration, motion } from '../internal/motion.ts';
import { useEnum } from '../internal/warnUnknown.ts';
import './ExpandCollapse.css';

export const expandStates = ['collapsed', 'expanding', 'expanded', 'collapsing'] as const;
export type ExpandState = (typeof expandStates)[number];
export const expandHeadingLevels = [2, 3, 4, 5, 6] as const;

export interface ExpandCollapseProps extends Omit<ComponentPropsWithoutRef<'div'>, 'title'> {
  /** The text of the toggle button. */
  title: ReactNode;
  children?: ReactNode;
  /** Controlled open state. */
  expanded?: boolean;
  /** Initial open state when uncontrolled (default false). */
  defaultExpanded?: boolean;
  onExpandedChange?: (expanded: boolean) => void;
  /** Called on every state change: collapsed, expanding, expanded, collapsing. */
  onStateChange?: (state: ExpandState) => void;
  /** Opens while the page is printed. */
  expandOnPrint?: boolean;
  /** The toggle sits in a heading of this level (2 to 6); none when omitted. */
  headingLevel?: 2 | 3 | 4 | 5 | 6;
}

/**
 * A disclosure: a button (aria-expanded, aria-controls) and a panel that grows or shrinks over
 * 250 ms (collapsed -> expanding -> expanded -> collapsing -> collapsed); with reduced motion it
 * jumps straight to the end state.
 */
export const ExpandCollapse = forwardRef<HTMLDivElement, ExpandCollapseProps>(function ExpandCollapse(
  {
    title,
    children,
    expanded,
    defaultExpanded = false,
    onExpandedChange,
    onStateChange,
    expandOnPrint = false,
    headingLevel,
    className,
    ...rest
  },
  ref,
) {
  const levelValue = useEnum('ExpandCollapse', 'headingLevel', headingLevel, expandHeadingLevels, undefined);
  const [ownOpen, setOwnOpen] = useState(defaultExpanded);
  const [printing, setPrinting] = useState(false);
  const open = (expanded ?? ownOpen) || printing;
  const [state, setState] = useState<ExpandState>(open ? 'expanded' : 'collapsed');
  const panelRef = useRef<HTMLElement>(null);
  const onStateChangeRef = useRef(onStateChange);
  onStateChangeRef.current = onStateChange;
  const firstRender = useRef(true);
  const wasPrinting = useRef(false);
  const panelId = useId();
  const triggerId = useId();

  // Drive the state machine from `open`.
  useLayoutEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    const panel = panelRef.current;
    // Opening for print and closing after it happen at once.
    const printToggle = printing || wasPrinting.current;
    wasPrinting.current = printing;
    const ms = printToggle ? 0 : duration(panel, '--gh-duration-expand', motion.expand);
    const target: ExpandState = open ? 'expanded' : 'collapsed';
    if (ms === 0 || !panel) {
      setState(target);
      return;
    }
    setState(open ? 'expanding' : 'collapsing');
    // A collapsed panel is hidden and measures 0 px: show it (at 0 px) before measuring, or it
    // would stay closed for the whole 'expanding' phase and then snap open.
    if (open) {
      panel.style.height = '0px';
      panel.hidden = false;
    }
    // Animate height between 0 and the content height; a forced reflow fixes the start value.
    const full = `${panel.scrollHeight}px`;
    panel.style.height = open ? '0px' : full;
    void panel.offsetHeight;
    panel.style.height = open ? full : '0px';
    const timer = setTimeout(() => {
      // Closed: hidden before the height is released, or the panel would show at its full height
      // for a frame until React renders 'collapsed'.
      if (!open) panel.hidden = true;
      panel.style.height = '';
      setState(target);
    }, ms);
    return () => clearTimeout(timer);
  }, [open, printing]);

  useEffect(() => {
    onStateChangeRef.current?.(state);
  }, [state]);

  useEffect(() => {
    if (!expandOnPrint) return;
    const before = () => setPrinting(true);
    const after = () => setPrinting(false);
    window.addEventListener('beforeprint', before);
    window.addEventListener('afterprint', after);
    return () => {
      window.removeEventListener('beforeprint', before);
      window.removeEventListener('afterprint', after);
    };
  }, [expandOnPrint]);

  const toggle = () => {
    const next = !open;
    if (expanded === undefined) setOwnOpen(next);
    onExpandedChange?.(next);
  };

  const button = (
    <button
      type="button"
      id={triggerId}
      className="gh-expand__trigger"
      aria-expanded={open}
      aria-controls={panelId}
      onClick={toggle}
    >
      <span>{title}</span>
      <svg className="gh-expand__chevron" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
        <path fill="currentColor" d="M1.9 4.6 8 10.7l6.1-6.1 1.4 1.4L8 13.5.5 6l1.4-1.4Z" />
      </svg>
    </button>
  );
  const Heading = levelValue ? (`h${levelValue}` as const) : null;
  return (
    <div
      ref={ref}
      className={cx('gh-expand', className)}
      data-state={state}
      data-expand-on-print={expandOnPrint || undefined}
      {...rest}
    >
      {Heading ? <Heading className="gh-expand__heading">{button}</Heading> : button}
      <section
        ref={panelRef}
        id={panelId}
        className="gh-expand__panel"
        aria-labelledby={triggerId}
        hidden={state === 'collapsed'}
      >
        <div className="gh-expand__content">{children}</div>
      </section>
    </div>
  );
});
