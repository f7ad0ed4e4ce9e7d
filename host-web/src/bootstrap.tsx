import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { createAppServices } from './app/services.ts';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element to mount Fieldbook into.');
createRoot(root).render(
  <StrictMode>
    <App services={createAppServices()} />
  </StrictMode>,
);
