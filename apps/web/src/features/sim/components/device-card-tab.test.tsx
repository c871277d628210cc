/** A device's SIM card tab: the provider's answer on request, while it is asked, and its refusal. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from 'antd';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setSessionCookies } from '../../../lib/cookies';
import '../../../lib/console-catalog';
import { fakeApi } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render';
import { DeviceCardTab } from './device-card-tab';

const SN = 'SL0000000101';
const CARD = `/api/7/${SN}/DeviceCard`;
const card = { Id: 4, DeviceSn: SN, ICCID: '89860412345678901234' };
const sim = {
  Iccid: '89860412345678901234',
  Imsi: '460041234567890',
  Msisdn: '1064812345678',
  Carrier: 'CMCC',
  Status: 'ACTIVATED',
  DataPlanMB: 1024,
  DataUsedMB: 312.456,
  ActivatedAt: '2025-01-01',
  ExpiresAt: '2026-12-31',
  SimAccount: 'ops@station',
};

function renderTab() {
  return renderRoutes(
    [
      {
        path: '/',
        element: (
          <App>
            <DeviceCardTab sn={SN} />
          </App>
        ),
      },
    ],
    '/',
  );
}

describe("a device's SIM card", () => {
  beforeEach(() => {
    setSessionCookies({ account: 'admin' });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('asks the provider only when told, shows the card’s state, data used to 2 decimals and expiry', async () => {
    let answer: (value: { data: typeof sim }) => void = () => undefined;
    const api = fakeApi({
      [`GET ${CARD}`]: () => ({ data: card }),
      [`GET ${CARD}/simboss`]: () =>
        new Promise((resolve) => {
          answer = resolve;
        }),
    });
    renderTab();
    const ask = await screen.findByRole('button', { name: 'Ask the SIM provider' });
    expect(api.calls.some((c) => c.path === `${CARD}/simboss`)).toBe(false);
    await userEvent.click(ask);
    // While the provider is asked, the button says so.
    await vi.waitFor(() => {
      expect(ask.className).toContain('ant-btn-loading');
    });
    answer({ data: sim });
    expect(await screen.findByText('ACTIVATED')).toBeTruthy();
    expect(screen.getByText('312.46 MB of 1024 MB')).toBeTruthy();
    expect(screen.getByText('2026-12-31')).toBeTruthy();
    expect(screen.getByText('CMCC')).toBeTruthy();
    expect(await screen.findByRole('button', { name: /Ask again$/ })).toBeTruthy();
  });

  it('says why the provider gave no answer, and asks again on request', async () => {
    let calls = 0;
    fakeApi({
      [`GET ${CARD}`]: () => ({ data: card }),
      [`GET ${CARD}/simboss`]: () => {
        calls += 1;
        return calls === 1
          ? { status: 502, message: 'The SIM provider cannot be reached' }
          : { data: { ...sim, DataPlanMB: null, DataUsedMB: 5 } };
      },
    });
    renderTab();
    await userEvent.click(await screen.findByRole('button', { name: 'Ask the SIM provider' }));
    expect(await screen.findByText('The SIM provider cannot be reached')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Ask the SIM provider' }));
    expect(await screen.findByText('5.00 MB used')).toBeTruthy();
    expect(screen.queryByText('The SIM provider cannot be reached')).toBeNull();
  });
});
