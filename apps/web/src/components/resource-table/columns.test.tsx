/**
 * How the generic table shows its cells: a choice's label instead of its code (in the UI
 * language), a full date and time on one line, numbers with their units, long text cut with its
 * whole text in a tooltip, and secondary columns left out when the screen is narrow.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App, ConfigProvider } from 'antd';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { changeLanguage } from '../../lib/i18n';
import { setSessionCookies } from '../../lib/cookies';
import { formatDateTime } from '../../lib/dates';
import { renderRoutes } from '../../test/render';
import { urlOf } from '../../test/fetch';
import { defineResource } from './resource';
import { ResourceTable } from './resource-table';
import type { ResourceTableConfig } from './resource-types';
import { screenWidth } from '../../test/screen-width';

interface Reading {
  Id: number;
  Name: string;
  Status: number;
  Flow: number;
  Unit: string;
  CreatedAt: number;
  Remark: string;
}

const resource = defineResource<Reading>({ key: 'test-readings', operate: 'client.manage', list: 'GET /Client' });

const config: ResourceTableConfig<Reading> = {
  resource,
  rowName: (row) => row.Name,
  columns: [
    { key: 'Name', title: 'clients.clientName' },
    {
      key: 'Status',
      title: 'users.status',
      options: [
        { value: 1, labelKey: 'userStatus.normal' },
        { value: 0, labelKey: 'userStatus.disabled' },
      ],
    },
    { key: 'Flow', title: 'dataValue.defaultValue', unit: (row) => row.Unit },
    { key: 'CreatedAt', title: 'users.createdAt', format: 'dateTime' },
    { key: 'Remark', title: 'users.remark', ellipsis: true, width: 120, onCards: false },
  ],
};

// 2026-03-04 05:06:07 in the browser's time zone: the day and the hour are not confused.
const CREATED = new Date(2026, 2, 4, 5, 6, 7).getTime();
const REMARK = 'Backwash the sand filter every second Monday before the morning shift';
const ROWS: Reading[] = [
  { Id: 1, Name: 'Inlet pump', Status: 1, Flow: 12.5, Unit: 'm³/h', CreatedAt: CREATED, Remark: REMARK },
  { Id: 2, Name: 'Blower', Status: 0, Flow: 3, Unit: '', CreatedAt: CREATED, Remark: '' },
];

const fetchMock = vi.fn<typeof fetch>();
const ok = (data: unknown, extra: Record<string, unknown> = {}) =>
  Promise.resolve(new Response(JSON.stringify({ success: true, message: 'OK', data, ...extra })));
const ADMIN = { Id: 1, Account: 'admin', GroupId: 7, IsAdmin: true, Roles: [], Operates: [], Config: { Theme: 'light' } };

function renderTable() {
  return renderRoutes(
    [
      {
        path: '/',
        element: (
          <ConfigProvider theme={{ token: { motion: false } }}>
            <App>
              <ResourceTable config={config} title="Readings" />
            </App>
          </ConfigProvider>
        ),
      },
    ],
    '/',
  );
}

beforeEach(() => {
  fetchMock.mockReset();
  fetchMock.mockImplementation((input) => {
    const url = new URL(urlOf(input), 'http://localhost');
    if (url.pathname === '/api/user/myinfo') return ok(ADMIN);
    return ok(ROWS, { count: ROWS.length });
  });
  vi.stubGlobal('fetch', fetchMock);
  setSessionCookies({ account: 'admin' });
  screenWidth(1440);
});

afterEach(async () => {
  vi.unstubAllGlobals();
  await changeLanguage('en-US');
});

function rowOf(name: string) {
  const row = screen.getByText(name).closest('tr');
  if (!row) throw new Error(`no row for ${name}`);
  return within(row);
}

describe('the generic table’s cells', () => {
  it('shows a choice’s label, not its code, in the user’s language', async () => {
    renderTable();
    await screen.findByText('Inlet pump');
    expect(rowOf('Inlet pump').getByText('Normal')).toBeTruthy();
    expect(rowOf('Blower').getByText('Disabled')).toBeTruthy();
    expect(rowOf('Blower').queryByText('0')).toBeNull();

    await changeLanguage('zh-CN');
    await waitFor(() => {
      expect(rowOf('Inlet pump').getByText('正常')).toBeTruthy();
    });
  });

  it('shows the full date and time on one line, in a time element', async () => {
    renderTable();
    await screen.findByText('Inlet pump');
    const time = rowOf('Inlet pump').getByText('2026-03-04 05:06:07');
    expect(time.tagName).toBe('TIME');
    expect(time.getAttribute('datetime')).toBe(new Date(CREATED).toISOString());
    expect(time.style.whiteSpace).toBe('nowrap');
    expect(formatDateTime(CREATED)).toBe('2026-03-04 05:06:07');
  });

  it('puts the unit after the number, and nothing after a number without one', async () => {
    renderTable();
    await screen.findByText('Inlet pump');
    expect(rowOf('Inlet pump').getByText('12.5 m³/h')).toBeTruthy();
    expect(rowOf('Blower').getByText('3')).toBeTruthy();
  });

  it('cuts long text with an ellipsis and shows it whole in a tooltip', async () => {
    renderTable();
    await screen.findByText('Inlet pump');
    const cell = rowOf('Inlet pump').getByText(REMARK).closest<HTMLElement>('[style*="text-overflow"]');
    if (!cell) throw new Error('the remark is not cut');
    expect(cell.style.textOverflow).toBe('ellipsis');
    await userEvent.hover(cell);
    expect((await screen.findByRole('tooltip')).textContent).toContain(REMARK);
    // The column is as wide as it says (cut text needs a width).
    const header = screen.getByRole('columnheader', { name: 'Remark' });
    const column = header.closest('table')?.querySelectorAll('col')[[...(header.parentElement?.children ?? [])].indexOf(header)];
    expect(column?.style.width).toBe('120px');
  });

  it('leaves secondary columns out under 1024 px, and shows cards with words under 750 px', async () => {
    screenWidth(900);
    const { unmount } = renderTable();
    await screen.findByText('Inlet pump');
    expect(screen.queryByRole('columnheader', { name: 'Remark' })).toBeNull();
    expect(screen.getByRole('columnheader', { name: 'Status' })).toBeTruthy();
    unmount();

    screenWidth(390);
    renderTable();
    const [title] = await screen.findAllByText('Inlet pump');
    expect(document.querySelector('.ant-table')).toBeNull();
    const card = title?.closest('.ant-card');
    if (!(card instanceof HTMLElement)) throw new Error('no card');
    expect(within(card).getByText('Normal')).toBeTruthy();
    expect(within(card).getByText('12.5 m³/h')).toBeTruthy();
    expect(within(card).getByText('2026-03-04 05:06:07')).toBeTruthy();
    expect(within(card).queryByText(REMARK)).toBeNull();
  });
});
