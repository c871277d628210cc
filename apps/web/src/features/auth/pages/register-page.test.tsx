/** /register: the shared rules before anything is sent, then the server's answer shown on sign-in. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { changeLanguage } from '../../../lib/i18n';
import { fakeApi } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render';
import { LoginPage } from './login-page';
import { RegisterPage } from './register-page';

const routes = [
  { path: '/register', element: <RegisterPage /> },
  { path: '/login', element: <LoginPage /> },
];

describe('the registration page', () => {
  beforeEach(async () => {
    await changeLanguage('en-US');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('refuses differing passwords and a bad phone without a call, then registers and returns to sign-in with the answer', async () => {
    const answer =
      'Registration received: if the group code is right and the account free, the group’s administrator activates it';
    const api = fakeApi({ 'POST /api/user/Register': () => ({ status: 202, data: null, message: answer }) });
    const { router } = renderRoutes(routes, '/register');
    await userEvent.type(await screen.findByLabelText('Group code'), 'river');
    await userEvent.type(screen.getByLabelText('Account'), 'newbie');
    await userEvent.type(screen.getByLabelText('Name'), 'New Operator');
    await userEvent.type(screen.getByLabelText('Phone'), '123');
    await userEvent.type(screen.getByLabelText('Password'), 'Apply12345');
    await userEvent.type(screen.getByLabelText('Confirm password'), 'Apply99999');
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText('The two passwords differ')).toBeTruthy();
    expect(await screen.findByText('Enter a mobile number or a landline (area code-number)')).toBeTruthy();
    expect(api.callsTo('POST', '/api/user/Register')).toHaveLength(0);
    await userEvent.clear(screen.getByLabelText('Phone'));
    await userEvent.clear(screen.getByLabelText('Confirm password'));
    await userEvent.type(screen.getByLabelText('Confirm password'), 'Apply12345');
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/login');
    });
    expect(api.callsTo('POST', '/api/user/Register')[0]?.body).toMatchObject({
      Code: 'river',
      Account: 'newbie',
      Password: 'Apply12345',
    });
    expect(await screen.findByText(answer)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Register' }).getAttribute('href')).toBe('/register');
  });
});
