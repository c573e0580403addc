import '@gatehouse/ui/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { loadEnvironment } from './environment.ts';

const root = document.getElementById('root');
if (!root) throw new Error('Prime Portal: #root is missing from index.html');
await loadEnvironment();
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
