import type { AlertVariant } from './Alert.tsx';

const paths: Record<AlertVariant, string> = {
  critical: 'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm-1 5h2v7h-2V7Zm0 9h2v2h-2v-2Z',
  warning: 'M12 2 1 21h22L12 2Zm-1 7h2v6h-2V9Zm0 8h2v2h-2v-2Z',
  info: 'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm-1 8h2v8h-2v-8Zm0-4h2v2h-2V6Z',
  confirm: 'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm-1.5 14.5-4-4 1.4-1.4 2.6 2.6 5.6-5.6 1.4 1.4-7 7Z',
};

/** The variant's glyph; decorative, the variant is also given in visually hidden text. */
export function AlertIcon({ variant }: { variant: AlertVariant }) {
  return (
    <svg className="gh-alert__icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path fill="currentColor" d={paths[variant]} />
    </svg>
  );
}
