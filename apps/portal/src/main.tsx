import '@gatehouse/ui/styles.css';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { loadEnvironment } from './environment.ts';
import { chosenLanguage, LanguageProvider, showLanguage } from './language.tsx';

const root = document.getElementById('root');
if (!root) throw new Error('Prime Portal: #root is missing from index.html');
// The page's texts before its first render: no flash of another language.
const language = chosenLanguage();
await Promise.all([loadEnvironment(), showLanguage(language)]);
// A transition: React renders the page in slices that yield to the browser, not one long task.
startTransition(() =>
  createRoot(root).render(
    <StrictMode>
      <LanguageProvider initial={language}>
        <App />
      </LanguageProvider>
    </StrictMode>,
  ),
);
