import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import '../src/styles.css';
import './gallery.css';
import { actionEntries } from './entries/actions.tsx';
import { formEntries } from './entries/forms.tsx';
import { overlayEntries } from './entries/overlays.tsx';
import { structureEntries } from './entries/structure.tsx';
import type { GalleryEntry } from './layout.tsx';

/** Every entry, in index order; the e2e test opens each one. */
export const entries: GalleryEntry[] = [
  ...actionEntries,
  ...formEntries,
  ...structureEntries,
  ...overlayEntries,
].sort((a, b) => a.title.localeCompare(b.title));

function currentSlug(): string {
  return window.location.hash.replace(/^#\/?/, '');
}

function Gallery() {
  const [slug, setSlug] = useState(currentSlug);
  useEffect(() => {
    const onHash = () => setSlug(currentSlug());
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  const entry = entries.find((e) => e.slug === slug);
  useEffect(() => {
    document.title = entry ? `${entry.title} · Gatehouse UI gallery` : 'Gatehouse UI gallery';
  }, [entry]);
  return (
    <>
      <header className="gallery__banner">
        <p className="gallery__brand">Gatehouse UI gallery</p>
        {entry ? <a href="#/">All components</a> : null}
      </header>
      <main id="gallery-main" className="gallery__main" data-entry={entry?.slug ?? 'index'}>
        {entry ? (
          <>
            <h1>{entry.title}</h1>
            {entry.render()}
          </>
        ) : (
          <>
            <h1>Components</h1>
            <nav aria-label="Components">
              <ul className="gallery__index">
                {entries.map((e) => (
                  <li key={e.slug}>
                    <a href={`#/${e.slug}`}>{e.title}</a>
                  </li>
                ))}
              </ul>
            </nav>
          </>
        )}
      </main>
    </>
  );
}

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <Gallery key="gallery" />
    </StrictMode>,
  );
}
