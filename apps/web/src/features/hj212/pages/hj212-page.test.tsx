/**
 * System Configure → HJ 212: the pollutant code table (each code's data point, scale and total,
 * added and checked by the shared rules) and the forwarding links with their state, which the
 * screen fetches again by itself; a new link's start (from when it back-fills) picked as a date
 * and time.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import type { Hj212CodeDto, Hj212ForwardDto } from '@sluice/shared/hj212.schema';
import { setSessionCookies } from '../../../lib/cookies';
import '../../../lib/console-catalog';
import { changeLanguage } from '../../../lib/i18n';
import { fakeApi } from '../../../test/fake-api';
import { renderScreen } from '../../../test/render';
import { fill } from '../../../test/workbench';
import { Hj212Page } from './hj212-page';

const codes: Hj212CodeDto[] = [
  { Id: 1, Code: 'w00000', DataKey: 'Inflow', Name: 'Flow', Scale: 3.6, Total: 'volume' },
  { Id: 2, Code: 'w01001', DataKey: 'PH_Out', Name: 'pH', Scale: 1, Total: '' },
  { Id: 3, Code: 'w01018', DataKey: 'COD_Out', Name: 'COD', Scale: 1, Total: 'load' },
];

const link: Hj212ForwardDto = {
  Id: 5,
  Name: 'County bureau',
  DeviceSn: 'SL0000000104',
  Host: '10.1.2.3',
  Port: 9212,
  Mn: 'PLAT01',
  Password: '••••••',
  Codes: '',
  Kinds: 'minute,hourly',
  MinuteInterval: 10,
  Enabled: true,
  StartAt: Date.UTC(2026, 0, 1),
  Connected: true,
  LastSent: Date.UTC(2026, 0, 22, 2, 30),
  Backlog: 0,
  LastError: '',
};

const renderPage = () => renderScreen('/sys/hj212', <Hj212Page />);

/** The open dialog with this title (found by its text: asking every element's role is slow in a page this big). */
async function dialogTitled(title: string): Promise<HTMLElement> {
  return waitFor(() => {
    const found = screen
      .queryAllByText(title)
      .map((t) => t.closest<HTMLElement>('[role="dialog"]'))
      .find((d) => d !== null);
    if (!found) throw new Error(`no dialog ${title}`);
    return found;
  });
}

/** The table row holding a text (the list's body: its header is a table of its own). */
async function rowOf(text: string): Promise<HTMLElement> {
  return (await screen.findByText(text)).closest('tr') as HTMLElement;
}

/** The server's side of the forwarding list: one link, and what adding or editing one answers. */
const fakeForwarding = () =>
  fakeApi({
    'GET /api/Hj212Code': () => ({ data: codes, count: codes.length }),
    'GET /api/Hj212Forward': () => ({ data: [link], count: 1 }),
    'POST /api/Hj212Forward': (call) => ({
      status: 201,
      data: { ...link, Id: 6, ...(call.body as object) },
      message: 'Created',
    }),
    'PUT /api/Hj212Forward': (call) => ({ data: { ...link, ...(call.body as object) }, message: 'Saved' }),
  });

/** Fills a new platform's required fields but the kinds (minute by default). */
async function fillPlatform(dialog: HTMLElement) {
  await fill(within(dialog).getByLabelText('Platform'), 'Province');
  await fill(within(dialog).getByLabelText('Device (serial number)'), 'SL0000000104');
  await fill(within(dialog).getByLabelText('Host'), 'platform.example.cn');
  await fill(within(dialog).getByLabelText('Port'), '9300');
  await fill(within(dialog).getByLabelText('MN'), 'PROV01');
}

async function pick(dialog: HTMLElement, label: string, option: string) {
  await userEvent.click(within(dialog).getByLabelText(label));
  await userEvent.click(await screen.findByTitle(option));
}

describe('System Configure → HJ 212', () => {
  beforeEach(() => {
    setSessionCookies({ account: 'admin' });
  });
  afterEach(async () => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    await changeLanguage('en-US');
  });

  it('lists the code table with each code’s total, and adds a code checked by the shared rules', async () => {
    const api = fakeApi({
      'GET /api/Hj212Code': () => ({ data: codes, count: codes.length }),
      'POST /api/Hj212Code': (call) => ({ status: 201, data: { Id: 9, ...(call.body as object) }, message: 'Created' }),
    });
    renderPage();
    expect(within(await rowOf('w00000')).getByText('Volume (flow, m³)')).toBeTruthy();
    expect(within(await rowOf('w00000')).getByText('3.6')).toBeTruthy();
    expect(within(await rowOf('w01018')).getByText('Load (kg)')).toBeTruthy();
    // No total: an empty cell.
    expect(within(await rowOf('w01001')).queryByText(/Volume|Load/)).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Add code' }));
    const dialog = await dialogTitled('Add code');
    await fill(within(dialog).getByLabelText('Code'), 'w-1');
    await fill(within(dialog).getByLabelText('Data point (DataKey)'), 'DO');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('A pollutant code is 2–12 letters and digits, like w01018')).toBeTruthy();
    expect(api.callsTo('POST', '/api/Hj212Code')).toEqual([]);

    const code = within(dialog).getByLabelText('Code');
    await userEvent.clear(code);
    await fill(code, 'w21017');
    await pick(dialog, 'Total (-Cou)', 'Load (kg)');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => {
      expect(api.callsTo('POST', '/api/Hj212Code')).toHaveLength(1);
    });
    expect(api.callsTo('POST', '/api/Hj212Code')[0]?.body).toMatchObject({
      Code: 'w21017',
      DataKey: 'DO',
      Scale: 1,
      Total: 'load',
    });
  });

  it('shows each link’s state and follows it as it changes on the server', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let state: Partial<Hj212ForwardDto> = {};
    fakeApi({
      'GET /api/Hj212Code': () => ({ data: codes, count: codes.length }),
      'GET /api/Hj212Forward': () => ({ data: [{ ...link, ...state }], count: 1 }),
    });
    renderPage();
    await userEvent.click(await screen.findByRole('tab', { name: 'Forwarding' }));
    const row = () => rowOf('County bureau');
    expect(within(await row()).getByText('Connected')).toBeTruthy();
    expect(within(await row()).getByText('10.1.2.3:9212')).toBeTruthy();

    // The platform stops answering: the list shows it without a reload.
    state = { Connected: false, Backlog: 3, LastError: 'no answer within 10 s' };
    await vi.advanceTimersByTimeAsync(5000);
    expect(await screen.findByText('no answer within 10 s')).toBeTruthy();
    expect(within(await row()).getByText('Not connected')).toBeTruthy();
    expect(within(await row()).getByText('3')).toBeTruthy();
  });

  it('adds a platform with its kinds as a list, and keeps the password when an edit leaves it empty', async () => {
    const api = fakeForwarding();
    renderPage();
    await userEvent.click(await screen.findByRole('tab', { name: 'Forwarding' }));
    await screen.findByText('County bureau');
    await userEvent.click(screen.getByRole('button', { name: 'Add platform' }));
    const add = await dialogTitled('Add platform');
    await fillPlatform(add);
    await fill(within(add).getByLabelText('Password'), 'pp;1');
    await userEvent.click(within(add).getByRole('button', { name: 'Save' }));
    expect(await within(add).findByText('A password is 1–32 letters, digits or symbols (no ; , = &)')).toBeTruthy();
    const password = within(add).getByLabelText('Password');
    await userEvent.clear(password);
    await fill(password, 'pp-1');
    await pick(add, 'Data kinds', 'Daily data (2031)');
    await userEvent.click(within(add).getByRole('button', { name: 'Save' }));
    await waitFor(() => {
      expect(api.callsTo('POST', '/api/Hj212Forward')).toHaveLength(1);
    });
    expect(api.callsTo('POST', '/api/Hj212Forward')[0]?.body).toMatchObject({
      Name: 'Province',
      DeviceSn: 'SL0000000104',
      Host: 'platform.example.cn',
      Port: 9300,
      Mn: 'PROV01',
      Password: 'pp-1',
      Kinds: 'minute,daily',
      MinuteInterval: 10,
      Enabled: true,
    });

    // By its label: asking every button's role is slow in a page this big.
    await userEvent.click(within(await rowOf('County bureau')).getByLabelText('Edit County bureau'));
    const edit = await dialogTitled('Edit platform');
    expect(within(edit).getByLabelText<HTMLInputElement>('Password').value).toBe('');
    await userEvent.click(within(edit).getByRole('button', { name: 'Save' }));
    await waitFor(() => {
      expect(api.callsTo('PUT', '/api/Hj212Forward')).toHaveLength(1);
    });
    const body = api.callsTo('PUT', '/api/Hj212Forward')[0]?.body as Record<string, unknown>;
    expect(body).toMatchObject({ Id: 5, Kinds: 'minute,hourly', Mn: 'PLAT01' });
    expect(body).not.toHaveProperty('Password');
    expect(body).not.toHaveProperty('StartAt');
  });

  it('sets from when a new link sends (back-fill) with a date and time checked by the shared rule', async () => {
    const api = fakeForwarding();
    renderPage();
    await userEvent.click(await screen.findByRole('tab', { name: 'Forwarding' }));
    // The list says from when each link sends.
    expect(within(await rowOf('County bureau')).getByText(dayjs(link.StartAt).format('YYYY-MM-DD HH:mm:ss'))).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Add platform' }));
    const add = await dialogTitled('Add platform');
    await fillPlatform(add);
    await fill(within(add).getByLabelText('Password'), 'pp-1');
    const start = within(add).getByLabelText('Send from');
    // Empty means now; the help says what an earlier time does.
    expect(start.getAttribute('placeholder')).toBe('Now');
    expect(within(add).getByText(/An earlier time back-fills/)).toBeTruthy();

    /** Types a time into the picker and confirms it with the picker's OK, as a user does. */
    const pickTime = async (text: string) => {
      await userEvent.clear(start);
      await userEvent.type(start, text);
      const ok = await waitFor(() => {
        const button = [...document.querySelectorAll<HTMLElement>('.ant-picker-ok button')].at(-1);
        if (!button) throw new Error('no OK button');
        return button;
      });
      await userEvent.click(ok);
      await waitFor(() => {
        expect((start as HTMLInputElement).value).toBe(text);
      });
    };
    await pickTime('1999-12-31 23:00');
    await userEvent.click(within(add).getByRole('button', { name: 'Save' }));
    expect(await within(add).findByText('Send from a time after 2000')).toBeTruthy();
    expect(api.callsTo('POST', '/api/Hj212Forward')).toEqual([]);

    await pickTime('2026-01-20 08:30');
    await userEvent.click(within(add).getByRole('button', { name: 'Save' }));
    await waitFor(() => {
      expect(api.callsTo('POST', '/api/Hj212Forward')).toHaveLength(1);
    });
    expect(api.callsTo('POST', '/api/Hj212Forward')[0]?.body).toMatchObject({
      Name: 'Province',
      StartAt: new Date(2026, 0, 20, 8, 30).getTime(),
    });

    // An existing link shows its start, which an edit does not change.
    await userEvent.click(within(await rowOf('County bureau')).getByLabelText('Edit County bureau'));
    const edit = await dialogTitled('Edit platform');
    const shown = within(edit).getByLabelText<HTMLInputElement>('Send from');
    expect(shown.value).toBe(dayjs(link.StartAt).format('YYYY-MM-DD HH:mm'));
    expect(shown.disabled).toBe(true);
    expect(within(edit).getByText(/Set when the platform was added/)).toBeTruthy();
  });

  it('speaks Chinese', async () => {
    await changeLanguage('zh-CN');
    fakeApi({ 'GET /api/Hj212Code': () => ({ data: codes, count: codes.length }) });
    renderPage();
    expect(await screen.findByRole('tab', { name: '数据转发' })).toBeTruthy();
    expect(within(await rowOf('w00000')).getByText('体积（流量，m³）')).toBeTruthy();
    expect(within(await rowOf('w01018')).getByText('排放量（kg）')).toBeTruthy();
    await userEvent.click(screen.getByRole('tab', { name: '数据转发' }));
    await userEvent.click(await screen.findByRole('button', { name: '新增平台' }));
    const add = await dialogTitled('新增平台');
    expect(within(add).getByLabelText('起始时间').getAttribute('placeholder')).toBe('现在');
    expect(within(add).getByText(/早于现在即补发/)).toBeTruthy();
  });
});
