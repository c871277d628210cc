/** The watermark of spec §2 follows the group's setting and carries the signed-in account. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { fakeApi } from '../../test/fake-api';
import { renderRoutes } from '../../test/render';
import { PageWatermark } from './page-watermark';

const group = (watermark: boolean) => ({
  Id: 7,
  GroupName: 'Sluice',
  Account: 'admin',
  Code: 'sluice',
  Description: '',
  Logo: '',
  Watermark: watermark,
});

function renderPage() {
  return renderRoutes(
    [
      {
        path: '/',
        element: (
          <PageWatermark>
            <p>Page body</p>
          </PageWatermark>
        ),
      },
    ],
    '/',
  );
}

describe('the page watermark', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('covers the page when the group has it on', async () => {
    const api = fakeApi({ 'GET /api/group/7': () => ({ data: group(true) }) });
    const view = renderPage();
    await screen.findByText('Page body');
    await waitFor(() => {
      expect(view.container.querySelector('.sluice-watermark')).not.toBeNull();
    });
    expect(api.callsTo('GET', '/api/group/7')).toHaveLength(1);
  });

  it('leaves the page alone when the group has turned it off', async () => {
    const api = fakeApi({ 'GET /api/group/7': () => ({ data: group(false) }) });
    const view = renderPage();
    await waitFor(() => {
      expect(api.callsTo('GET', '/api/group/7')).toHaveLength(1);
    });
    await screen.findByText('Page body');
    await waitFor(() => {
      expect(view.container.querySelector('.sluice-watermark')).toBeNull();
    });
  });
});
