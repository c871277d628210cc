import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import './index.css';
import { AppProviders } from './app/providers';
import { createAppRouter } from './app/router';
import { loginPath, setApiHooks } from './lib/api-client';

const router = createAppRouter();

setApiHooks({
  // An expired or revoked session: back to sign-in, then return here afterwards.
  onUnauthorized: (returnTo) => {
    void router
      .navigate(loginPath(returnTo), { replace: true })
      .then(() => import('./lib/query-client'))
      .then((m) => m.clearAllCaches());
  },
  // Every successful write clears the GET cache (spec §7 Transport behaviour).
  onWrite: () => {
    void import('./lib/query-client').then((m) => m.clearGetCache());
  },
});

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root');

createRoot(container).render(
  <StrictMode>
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
