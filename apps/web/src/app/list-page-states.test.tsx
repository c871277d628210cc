/**
 * The pages of projects, stations and devices tell a failed call from an empty answer: a failure
 * shows the server's message and a retry (and no "0 in all"), and the retry loads the page.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App, ConfigProvider } from 'antd';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setSessionCookies } from '../lib/cookies';
import { changeLanguage } from '../lib/i18n';
import '../lib/console-catalog';
import { fakeApi, type FakeAnswer } from '../test/fake-api';
import { renderRoutes } from '../test/render';
import { DeviceListPage } from '../features/devices/pages/device-list-page';
import { ProjectListPage, StationListPage } from '../features/sites/pages/project-list-page';

const failure: FakeAnswer = { status: 503, message: 'The database is not answering' };
const emptyPage = { data: { data: [], count: 0, totalPage: 0, currentPage: 1, pageSize: 12 } };

function renderPage(element: React.ReactElement) {
  return renderRoutes(
    [
      {
        path: '/',
        element: (
          <ConfigProvider theme={{ token: { motion: false } }}>
            <App>{element}</App>
          </ConfigProvider>
        ),
      },
    ],
    '/',
  );
}

describe('a page of cards whose call fails', () => {
  beforeEach(() => {
    setSessionCookies({ account: 'admin' });
  });
  afterEach(async () => {
    vi.unstubAllGlobals();
    await changeLanguage('en-US');
  });

  it.each([
    ['projects', 'myProject', <ProjectListPage key="p" />],
    ['stations', 'mySite', <StationListPage key="s" />],
  ])('shows the failure with a retry on the %s page, then what the retry loads', async (_name, path, page) => {
    let fail = true;
    const api = fakeApi({ [`GET /api/7/project/${path}`]: () => (fail ? failure : emptyPage) });
    renderPage(page);
    expect(await screen.findByText('The list could not be loaded')).toBeTruthy();
    expect(screen.getByText('The database is not answering')).toBeTruthy();
    expect(screen.queryAllByText('No data')).toHaveLength(0);
    expect(screen.queryByText('0 in all')).toBeNull();

    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findAllByText('No data')).not.toHaveLength(0);
    expect(screen.getByText('0 in all')).toBeTruthy();
    expect(screen.queryByText('The list could not be loaded')).toBeNull();
    expect(api.callsTo('GET', `/api/7/project/${path}`)).toHaveLength(2);
  });

  it('shows the failure with a retry on the devices page, not "0 devices"', async () => {
    let fail = true;
    fakeApi({ 'GET /api/7/Device/MyDevice': () => (fail ? failure : { data: [], count: 0 }) });
    renderPage(<DeviceListPage />);
    expect(await screen.findByText('The database is not answering')).toBeTruthy();
    expect(screen.queryByText('0 devices')).toBeNull();
    expect(screen.queryAllByText('No data')).toHaveLength(0);
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('0 devices')).toBeTruthy();
    expect(screen.getAllByText('No data')).not.toHaveLength(0);
  });
});
