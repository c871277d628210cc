/** A device's HJ 212 logger tab: its counters, saving MN and password, and the server's refusal named on its field. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from 'antd';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setSessionCookies } from '../../../lib/cookies';
import '../../../lib/console-catalog';
import { fakeApi } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render';
import { Hj212LoggerTab } from './hj212-logger-tab';

const SN = 'SL0000000101';
const LOGGER = `/api/7/${SN}/Hj212Logger`;
const logger = {
  DeviceSn: SN,
  Mn: 'LOGGER01',
  Connected: true,
  LastPacket: Date.UTC(2026, 0, 22, 2, 30),
  Received: 12,
  Stored: 10,
  Refused: { crc: 2 },
  LastRefusal: 'CRC mismatch: the packet says 0000, its data gives 1C80',
  ListenerPort: 9212,
};

function renderTab() {
  return renderRoutes(
    [
      {
        path: '/',
        element: (
          <App>
            <Hj212LoggerTab sn={SN} />
          </App>
        ),
      },
    ],
    '/',
  );
}

describe("a device's HJ 212 logger", () => {
  beforeEach(() => {
    setSessionCookies({ account: 'admin' });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('shows what the logger sent and refused', async () => {
    fakeApi({ [`GET ${LOGGER}`]: () => ({ data: logger }) });
    renderTab();
    expect(await screen.findByText('12 received, 10 stored')).toBeTruthy();
    expect(screen.getByText('crc 2')).toBeTruthy();
    expect(screen.getByText(logger.LastRefusal)).toBeTruthy();
    expect(screen.getByText('Connected')).toBeTruthy();
    // Where a logger is to connect.
    expect(screen.getByText(/to TCP port 9212 of this server/)).toBeTruthy();
  });

  it('says when the server does not listen for loggers', async () => {
    fakeApi({ [`GET ${LOGGER}`]: () => ({ data: { ...logger, ListenerPort: null } }) });
    renderTab();
    expect(await screen.findByText(/HJ 212 listener is off \(HJ212_PORT is not set\)/)).toBeTruthy();
  });

  it('saves MN and password, and shows the server’s refusal on the MN', async () => {
    const api = fakeApi({
      [`GET ${LOGGER}`]: () => ({ data: { ...logger, Mn: '', Received: 0, Stored: 0, Refused: {}, LastRefusal: '' } }),
      [`PUT ${LOGGER}`]: () => ({
        status: 409,
        message: 'Mn: taken',
        data: { errors: [{ field: 'Mn', message: 'MN “LOGGER02” is already used by another logger' }] },
      }),
    });
    renderTab();
    expect(await screen.findByText('This device is not an HJ 212 logger.')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('MN'), 'LOGGER02');
    await userEvent.type(screen.getByLabelText('Password'), 'pw;1');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    // The shared rule refuses the password before anything is sent.
    expect(await screen.findByText('A password is 1–32 letters, digits or symbols (no ; , = &)')).toBeTruthy();
    expect(api.calls.some((c) => c.method === 'PUT')).toBe(false);
    await userEvent.clear(screen.getByLabelText('Password'));
    await userEvent.type(screen.getByLabelText('Password'), 'pw-1');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('MN “LOGGER02” is already used by another logger')).toBeTruthy();
    expect(api.calls.find((c) => c.method === 'PUT')?.body).toEqual({ Mn: 'LOGGER02', Password: 'pw-1' });
  });
});
