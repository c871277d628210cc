import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { changeLanguage } from '../lib/i18n';
import { renderRoutes } from '../test/render';
import { NotFoundPage } from './not-found-page';

const routes = [
  { path: '*', element: <NotFoundPage /> },
  { path: '/common/home', element: <p>home screen</p> },
];

afterEach(async () => {
  await changeLanguage('en-US');
});

describe('not-found page', () => {
  it('says so in English, with Back home and Refresh', async () => {
    await changeLanguage('en-US');
    renderRoutes(routes, '/no/such/page');
    expect(screen.getByRole('heading', { name: 'Sorry, this page does not exist' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Refresh' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Back home' })).toBeTruthy();
  });

  it('says the page errored in Chinese', async () => {
    await changeLanguage('zh-CN');
    renderRoutes(routes, '/notFount');
    expect(screen.getByRole('heading', { name: '抱歉，页面出错了' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '刷新' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '返回首页' })).toBeTruthy();
  });

  it('goes home from Back home', async () => {
    const { router } = renderRoutes(routes, '/notFound');
    await userEvent.click(screen.getByRole('button', { name: 'Back home' }));
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/common/home');
    });
    expect(screen.getByText('home screen')).toBeTruthy();
  });
});
