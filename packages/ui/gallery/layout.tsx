import { type ReactNode, useId } from 'react';

export interface GalleryEntry {
  /** The hash route: #/slug */
  slug: string;
  title: string;
  render: () => ReactNode;
}

export function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="gallery__section" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

export function Row({ children }: { children: ReactNode }) {
  return <div className="gallery__row">{children}</div>;
}

export function Stack({ children }: { children: ReactNode }) {
  return <div className="gallery__stack">{children}</div>;
}

export function Caption({ children }: { children: ReactNode }) {
  return <p className="gallery__caption">{children}</p>;
}
