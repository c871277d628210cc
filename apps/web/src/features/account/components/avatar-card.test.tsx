/** Own avatar: shown when there is one, removed only after the question is confirmed. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App, ConfigProvider } from 'antd';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { UserDto } from '@sluice/shared/account.schema';
import { changeLanguage } from '../../../lib/i18n';
import '../../../lib/console-catalog';
import { fakeApi } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render';
import { AvatarCard } from './avatar-card';

const user: UserDto = {
  Id: 4,
  Account: 'li',
  UserName: 'Li Operator',
  Email: '',
  Phone: '',
  UserType: 0,
  Remark: '',
  Status: 1,
  IsAdmin: false,
  IsPlatformAdmin: false,
  GroupId: 7,
  GroupName: 'Sluice',
  Picture: '/api/user/Picture/4?v=0123456789abcdef0123456789abcdef',
  Roles: [],
  RoleName: '',
  Operates: [],
  Config: { Theme: 'light' },
};

function renderCard() {
  return renderRoutes(
    [
      {
        path: '/',
        element: (
          <ConfigProvider theme={{ token: { motion: false } }}>
            <App>
              <AvatarCard user={user} />
            </App>
          </ConfigProvider>
        ),
      },
    ],
    '/',
  );
}

describe('the avatar card', () => {
  beforeEach(async () => {
    await changeLanguage('en-US');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('shows the picture from its address and removes it only after the question', async () => {
    const api = fakeApi({ 'DELETE /api/user/Picture': () => ({ data: { ...user, Picture: '' }, message: 'Deleted' }) });
    renderCard();
    expect(screen.getByRole('img', { name: 'Avatar of Li Operator' }).getAttribute('src')).toBe(user.Picture);
    await userEvent.click(screen.getByRole('button', { name: 'Remove avatar' }));
    const question = await waitFor(() => {
      const found = screen.queryAllByRole('dialog').find((d) => within(d).queryAllByText('Remove your avatar?').length > 0);
      if (!found) throw new Error('no question');
      return found;
    });
    expect(api.callsTo('DELETE', '/api/user/Picture')).toHaveLength(0);
    await userEvent.click(within(question).getByRole('button', { name: 'Remove avatar' }));
    await waitFor(() => {
      expect(api.callsTo('DELETE', '/api/user/Picture')).toHaveLength(1);
    });
  });

  it('opens the cropper for a square PNG or JPEG of at most 2 MB', async () => {
    fakeApi({});
    renderCard();
    await userEvent.click(screen.getByRole('button', { name: 'Change avatar' }));
    const cropper = await screen.findByRole('dialog');
    const input = within(cropper).getByLabelText('Choose an image');
    expect(input.getAttribute('accept')).toBe('image/png,.png,image/jpeg,image/jpg,image/pjpeg,.jpg,.jpeg');
    await userEvent.upload(input, new File([new Uint8Array(3 * 1024 * 1024)], 'big.png', { type: 'image/png' }));
    expect(await within(cropper).findByText('The image cannot exceed 2 MB')).toBeTruthy();
  });
});
