import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import './index.css';
import { AppProviders } from './app/providers';
import { createAppRouter } from './app/router';
import { SignedInArea } from './app/session-gate';
import { loginPath, setApiHooks } from './lib/api-client';
import { isSignedIn } from './lib/session';

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

function render(root: HTMLElement): void {
  createRoot(root).render(
    <StrictMode>
      <AppProviders>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>,
  );
}

/**
 * With a session, the signed-in area's code comes first (waiting at most 200 ms), so the first
 * screen does not suspend on it: React reveals a suspended first screen no sooner than 300 ms
 * after its spinner.
 */
const SIGNED_IN_CODE_WAIT_MS = 200;
if (isSignedIn()) {
  const waited = new Promise((resolve) => setTimeout(resolve, SIGNED_IN_CODE_WAIT_MS));
  void Promise.race([SignedInArea.preload(), waited])
    .catch(() => undefined)
    .then(() => {
      render(container);
    });
} else {
  render(container);
}
