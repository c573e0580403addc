import '@gatehouse/ui/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { loadEnvironment } from './environment.ts';
import { chosenLanguage, LanguageProvider, showLanguage } from './language.tsx';

const root = document.getElementById('root');
if (!root) throw new Error('Prime Portal: #root is missing from index.html');
// The page's texts before its first render: no flash of another language.
const language = chosenLanguage();
await Promise.all([loadEnvironment(), showLanguage(language)]);
createRoot(root).render(
  <StrictMode>
    <LanguageProvider initial={language}>
      <App />
    </LanguageProvider>
  </StrictMode>,
);
