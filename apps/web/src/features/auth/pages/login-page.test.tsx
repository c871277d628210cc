import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { changeLanguage } from '../../../lib/i18n';
import { readCookie } from '../../../lib/cookies';
import { renderRoutes } from '../../../test/render';
import { LoginPage } from './login-page';
import { urlOf } from '../../../test/fetch';

const routes = [
  { path: '/login', element: <LoginPage /> },
  { path: '/common/home', element: <p>home screen</p> },
  { path: '/user/list', element: <p>user list screen</p> },
];

const fetchMock = vi.fn<typeof fetch>();
const json = (status: number, body: object) => new Response(JSON.stringify(body), { status });

beforeEach(async () => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  await changeLanguage('en-US');
});

afterEach(async () => {
  vi.unstubAllGlobals();
  await changeLanguage('en-US');
});

describe('login page', () => {
  it('has labelled Account and Password fields and a Sign in button', () => {
    renderRoutes(routes, '/login');
    expect(screen.getByLabelText('Account').tagName).toBe('INPUT');
    expect(screen.getByLabelText('Password').getAttribute('type')).toBe('password');
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();
    expect(screen.getByText('Sluice')).toBeTruthy();
  });

  it('switches language at once from the page', async () => {
    renderRoutes(routes, '/login');
    expect(screen.getByRole('radiogroup', { name: 'Language' })).toBeTruthy();
    await userEvent.click(screen.getByText('中文'));
    expect(screen.getByRole('radiogroup', { name: '语言' })).toBeTruthy();
    expect(await screen.findByRole('button', { name: '登录' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Sign in' })).toBeNull();
    expect(screen.getByLabelText('账号')).toBeTruthy();
    expect(screen.getByLabelText('密码')).toBeTruthy();
    expect(readCookie('lang')).toBe('zh-CN');
    expect(document.documentElement.lang).toBe('zh-CN');
  });

  it('asks for both fields before calling the server, and follows the typing', async () => {
    renderRoutes(routes, '/login');
    await userEvent.type(screen.getByLabelText('Account'), '   ');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    const account = screen.getByLabelText('Account');
    const password = screen.getByLabelText('Password');
    expect(account.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(account.getAttribute('aria-describedby') ?? '')?.textContent).toBe('Required');
    expect(password.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getAllByText('Required')).toHaveLength(2);
    expect(document.activeElement).toBe(account);
    await userEvent.type(account, 'admin');
    expect(screen.getAllByText('Required')).toHaveLength(1);
    expect(account.getAttribute('aria-invalid')).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('asks in Chinese on the Chinese page', async () => {
    renderRoutes(routes, '/login');
    await userEvent.click(screen.getByText('中文'));
    await userEvent.click(await screen.findByRole('button', { name: '登录' }));
    expect(screen.getAllByText('必填')).toHaveLength(2);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("shows the server's message when the password is wrong", async () => {
    fetchMock.mockResolvedValueOnce(json(401, { success: false, message: 'Wrong account or password', data: null }));
    renderRoutes(routes, '/login');
    await userEvent.type(screen.getByLabelText('Account'), 'admin');
    await userEvent.type(screen.getByLabelText('Password'), 'nope');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Wrong account or password');
    expect(readCookie('token')).toBeUndefined();
  });

  it('signs in, sets the session cookies and returns to the asked page', async () => {
    fetchMock.mockImplementation((input) => {
      const url = urlOf(input);
      if (url === '/api/User') {
        return Promise.resolve(
          json(200, {
            success: true,
            message: 'OK',
            data: {
              Token: 't0k',
              ExpiresAt: Date.now() + 86_400_000,
              Account: 'admin',
              UserName: 'Admin',
              GroupId: 1,
              IsAdmin: true,
            },
          }),
        );
      }
      if (url === '/api/user/myinfo') {
        return Promise.resolve(
          json(200, {
            success: true,
            message: 'OK',
            data: { Account: 'admin', UserName: 'Admin', IsAdmin: true, Roles: [], Operates: [], Config: { Theme: 'dark' } },
          }),
        );
      }
      return Promise.resolve(json(200, { success: true, message: 'OK', data: null }));
    });
    const { router } = renderRoutes(routes, '/login?redirect=%2Fuser%2Flist');
    await userEvent.type(screen.getByLabelText('Account'), 'admin');
    await userEvent.type(screen.getByLabelText('Password'), 'secret123');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/user/list');
    });
    // The token stays with the server's HttpOnly cookie: the console does not keep it.
    expect(readCookie('token')).toBeUndefined();
    expect(document.cookie).not.toContain('t0k');
    expect(sessionStorage.getItem('sluice.user')).not.toContain('t0k');
    expect(readCookie('account')).toBe('admin');
    expect(readCookie('isLogin')).toBe('1');
    // the user's theme comes from the server
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(localStorage.getItem('sluice.theme')).toBe('dark');
  });
});
