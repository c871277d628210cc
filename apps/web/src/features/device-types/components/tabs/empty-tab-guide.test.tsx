/** An empty workbench tab says what belongs there and offers to add the first item or copy from another type. */
import { describe, expect, it, vi } from 'vitest';
import { App, Button, ConfigProvider } from 'antd';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { EmptyGuideProvider } from '../../../../components/resource-table/empty-guide';
import { changeLanguage } from '../../../../lib/i18n';
import { fakeApi } from '../../../../test/fake-api';
import { renderRoutes } from '../../../../test/render';
import { setUpWorkbenchTests } from '../../../../test/workbench';
import { ConfigTab } from './config-tab';

setUpWorkbenchTests();

function renderTab(copy: () => void, guided = true) {
  const tab = <ConfigTab typeId={5} />;
  return renderRoutes(
    [
      {
        path: '/',
        element: (
          <ConfigProvider theme={{ token: { motion: false } }}>
            <App>
              {guided ? (
                <EmptyGuideProvider value={{ action: <Button onClick={copy}>Copy from another type…</Button> }}>
                  {tab}
                </EmptyGuideProvider>
              ) : (
                tab
              )}
            </App>
          </ConfigProvider>
        ),
      },
    ],
    '/',
  );
}

describe('an empty workbench tab', () => {
  it('says what belongs there, and offers to add the first or to copy from another type', async () => {
    await changeLanguage('en-US');
    fakeApi({ 'GET /api/type/5/TypeConfig': () => [] });
    const copy = vi.fn();
    renderTab(copy);
    expect(
      await screen.findByText(
        'Nothing here yet: what belongs here is said above. Add the first, or copy it all from another type.',
      ),
    ).toBeTruthy();
    const adds = screen.getAllByRole('button', { name: 'Add configuration' });
    expect(adds.length).toBe(2); // the toolbar's and the empty list's
    await userEvent.click(screen.getByRole('button', { name: 'Copy from another type…' }));
    expect(copy).toHaveBeenCalledTimes(1);
  });

  it('outside a workbench, says only that there is no data', async () => {
    await changeLanguage('en-US');
    fakeApi({ 'GET /api/type/5/TypeConfig': () => [] });
    renderTab(vi.fn(), false);
    expect((await screen.findAllByText('No data')).length).toBeGreaterThan(0);
    expect(screen.queryByRole('button', { name: 'Copy from another type…' })).toBeNull();
  });
});
