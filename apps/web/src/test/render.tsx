/** Renders routes in memory with the real providers' pieces (translations, Ant Design). */
import type { ReactNode } from 'react';
import { App, ConfigProvider } from 'antd';
import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { ThemedConfig } from '../app/providers';
import { i18n } from '../lib/i18n';

export function renderRoutes(routes: RouteObject[], initialPath: string) {
  const router = createMemoryRouter(routes, { initialEntries: [initialPath] });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrap = (children: ReactNode) => (
    <QueryClientProvider client={client}>
      <I18nextProvider i18n={i18n}>
        <ThemedConfig>{children}</ThemedConfig>
      </I18nextProvider>
    </QueryClientProvider>
  );
  const view = render(wrap(<RouterProvider router={router} />));
  return { ...view, router };
}

/** Renders a screen at its path, as the shell shows it: Ant Design's App (messages, dialogs), motion off. */
export function renderScreen(path: string, screen: ReactNode) {
  const element = (
    <ConfigProvider theme={{ token: { motion: false } }}>
      <App>{screen}</App>
    </ConfigProvider>
  );
  return renderRoutes([{ path, element }], path);
}

/** Renders one element with translations and Ant Design's theme, as the app provides them. */
export function renderWithProviders(element: ReactNode) {
  return render(
    <I18nextProvider i18n={i18n}>
      <ThemedConfig>{element}</ThemedConfig>
    </I18nextProvider>,
  );
}
