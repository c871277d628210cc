/**
 * The field-record screens: repairs move on by the buttons a user's operates allow (assign asks
 * for a principal of the station; a refused move shows the server's words); an overdue repair
 * stands out; a sample over the standard is marked and pH 15 is refused before anything is sent;
 * a round records the chemicals added; the monthly report shows chemicals and downloads the
 * workbook; the monthly compliance lists each station's rates.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App, ConfigProvider } from 'antd';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DeviceInputDto, PollDto, RepairDto, StationCompliance, StationReport } from '@sluice/shared/field-records.schema';
import type { ReactNode } from 'react';
import { setSessionCookies } from '../../lib/cookies';
import { changeLanguage } from '../../lib/i18n';
import { fakeApi, type FakeHandler } from '../../test/fake-api';
import { renderRoutes } from '../../test/render';
import { fill } from '../../test/workbench';
import { MonthCompliance } from './components/month-compliance';
import { InspectionsPage, RepairsPage, WaterQualityPage } from './pages/records-pages';
import { StationReportPage } from './pages/station-report-page';

const STATION = 21;
const PROJECTS = [
  { Id: 20, Name: 'Qingshan', ProjectKind: 'project', ParentId: 0 },
  { Id: STATION, Name: 'Qingshan 1', ProjectKind: 'station', ParentId: 20 },
];

const repair = (fields: Partial<RepairDto>): RepairDto => ({
  Id: 1,
  ProjectId: STATION,
  ProjectName: 'Qingshan 1',
  DeviceSn: 'SL0000000104',
  DeviceName: 'Analyser',
  RepairTitle: 'Blower 1 trips',
  RepairContent: '',
  FaultCode: 'E201',
  State: 'reported',
  AssigneeId: null,
  AssigneeName: '',
  DueAt: null,
  Parts: '',
  Cost: null,
  Resolution: '',
  RejectNote: '',
  WarnId: null,
  MaintenanceId: null,
  ReportedBy: 'operator',
  CreatedAt: Date.UTC(2026, 10, 20, 2),
  AssignedAt: null,
  StartedAt: null,
  DoneAt: null,
  VerifiedAt: null,
  Overdue: false,
  Photos: [],
  ...fields,
});

const sample = (fields: Partial<DeviceInputDto>): DeviceInputDto => ({
  Id: 5,
  DeviceSn: 'SL0000000104',
  DeviceName: 'Analyser',
  ProjectId: STATION,
  ProjectName: 'Qingshan 1',
  Dt: Date.UTC(2026, 10, 20, 2),
  WaterInflow: null,
  WaterTemp: null,
  COD_In: null,
  COD_Out: 31,
  COD_Unit: 'mg/L',
  BOD5_In: null,
  BOD5_Out: null,
  BOD5_Unit: 'mg/L',
  NH3_N_In: null,
  NH3_N_Out: 9.5,
  NH3_N_Unit: 'mg/L',
  TN_In: null,
  TN_Out: null,
  TN_Unit: 'mg/L',
  TP_In: null,
  TP_Out: null,
  TP_Unit: 'mg/L',
  SS_In: null,
  SS_Out: null,
  SS_Unit: 'mg/L',
  PH_In: null,
  PH_Out: 7.2,
  FC_In: null,
  FC_Out: null,
  Sampler: 'Zhang Gong',
  Laboratory: '',
  Remark: '',
  CreatedBy: 'operator',
  Standard: 'GB 18918-2002 1A',
  Compliance: { COD: true, NH3_N: false, PH: true },
  Compliant: false,
  Photos: [],
  ...fields,
});

/** A user of group 7 with these operates (an administrator holds them all). */
const me =
  (operates: string[], isAdmin = false): FakeHandler =>
  () => ({
    data: {
      Id: 1,
      Account: isAdmin ? 'admin' : 'operator',
      UserName: isAdmin ? 'Admin' : 'Operator',
      GroupId: 7,
      IsAdmin: isAdmin,
      Roles: [],
      Operates: operates,
      Config: { Theme: 'light' },
    },
  });
const OPERATOR = ['records.view', 'records.enter'];

function show(element: ReactNode, handlers: Record<string, FakeHandler>, operates = OPERATOR, isAdmin = false) {
  const api = fakeApi({
    'GET /api/user/myinfo': me(operates, isAdmin),
    'GET /api/7/project': () => PROJECTS,
    ...handlers,
  });
  renderRoutes(
    [
      {
        path: '*',
        element: (
          <ConfigProvider theme={{ token: { motion: false } }}>
            <App>{element}</App>
          </ConfigProvider>
        ),
      },
    ],
    '/',
  );
  return api;
}

function dialogTitled(title: string): Promise<HTMLElement> {
  return waitFor(() => {
    const found = screen.queryAllByRole('dialog').find((d) => within(d).queryAllByText(title).length > 0);
    if (!found) throw new Error(`no dialog ${title}`);
    return found;
  });
}

beforeEach(() => {
  setSessionCookies({ account: 'operator' });
});
afterEach(async () => {
  vi.unstubAllGlobals();
  await changeLanguage('en-US');
});

describe('repairs', () => {
  it('offers field staff start but not assign, and shows the server’s words when a move is refused', async () => {
    const api = show(<RepairsPage />, {
      'GET /api/GetRepairPageList': () => [
        repair({ Id: 1, State: 'assigned', AssigneeName: 'Wang Wei' }),
        repair({ Id: 2, RepairTitle: 'Grid blocked', State: 'reported', DueAt: Date.UTC(2026, 10, 1), Overdue: true }),
        repair({ Id: 3, RepairTitle: 'Blower 1 service', RepairContent: '2000 h / 2000 h', MaintenanceId: 4, FaultCode: '' }),
      ],
      'POST /api/Repair/1/Action': () => ({
        status: 409,
        message: 'This repair is “Done”: it cannot be started now',
      }),
    });
    const overdue = (await screen.findAllByText('Grid blocked'))[0];
    // The overdue repair is marked as such; the other is not.
    const overdueRow = overdue?.closest('tr, .ant-card') as HTMLElement;
    expect(within(overdueRow).getByText('Overdue')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Assign “Grid blocked”' })).toBeNull();
    // A repair the run hours opened says so.
    expect(screen.getAllByText(/service due by run hours \(2000 h \/ 2000 h\)/).length).toBeGreaterThan(0);
    await userEvent.click(screen.getByRole('button', { name: 'Start “Blower 1 trips”' }));
    expect(await screen.findByText('This repair is “Done”: it cannot be started now')).toBeTruthy();
    expect(api.callsTo('POST', '/api/Repair/1/Action')[0]?.body).toEqual({ Action: 'start' });
  });

  it('lets a manager assign a repair to a principal of the station, asking first', async () => {
    const api = show(
      <RepairsPage />,
      {
        'GET /api/GetRepairPageList': () => [repair({ Id: 2, RepairTitle: 'Grid blocked' })],
        [`GET /api/station/${String(STATION)}/ProjectPrincipals`]: () => [{ Id: 9, Name: 'Wang Wei', Phone: '13800000000' }],
        'POST /api/Repair/2/Action': () => ({ status: 200, data: repair({ Id: 2, State: 'assigned' }), message: 'Saved' }),
      },
      [],
      true,
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Assign “Grid blocked”' }));
    const dialog = await dialogTitled('Assign “Grid blocked”');
    // Nothing is sent without an assignee.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Assign' }));
    expect(await within(dialog).findByText('Choose who does the repair')).toBeTruthy();
    expect(api.callsTo('POST', '/api/Repair/2/Action')).toEqual([]);
    await userEvent.click(within(dialog).getByLabelText('Assignee'));
    await userEvent.click(await screen.findByTitle('Wang Wei 13800000000'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Assign' }));
    await waitFor(() => {
      expect(api.callsTo('POST', '/api/Repair/2/Action')[0]?.body).toEqual({ Action: 'assign', AssigneeId: 9 });
    });
  });
});

describe('water quality', () => {
  it('marks a sample over the standard with its parameter, and refuses pH 15 on the field before sending', async () => {
    const api = show(<WaterQualityPage />, {
      'GET /api/7/DeviceInput': () => [sample({})],
      'GET /api/7/Device/AllDevice': () => [{ DeviceSn: 'SL0000000104', DeviceName: 'Analyser' }],
    });
    // The tag names the parameter, its value with the unit, and that it is over.
    const over = (_: string, element: Element | null) =>
      element?.classList.contains('ant-tag') === true && element.textContent === 'NH3-N 9.5 mg/L · over';
    expect((await screen.findAllByText(over)).length).toBeGreaterThan(0);
    expect(screen.getAllByText('Over the standard').length).toBeGreaterThan(0);
    await userEvent.click(screen.getByRole('button', { name: 'Record a sample' }));
    const dialog = await dialogTitled('Record a sample');
    await fill(within(dialog).getByLabelText('pH effluent'), '15');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('pH must lie between 0 and 14')).toBeTruthy();
    expect(api.callsTo('POST', '/api/7/SL0000000104/DeviceInput')).toEqual([]);
  });

  it('lists each station’s month of compliance, laboratory and online, in Chinese too', async () => {
    await changeLanguage('zh-CN');
    const row: StationCompliance = {
      ProjectId: STATION,
      ProjectName: 'Qingshan 1',
      Standard: 'GB 18918-2002 1A',
      Samples: 4,
      Judged: 4,
      Compliant: 3,
      Rate: 0.75,
      Params: [
        {
          Param: 'NH3_N',
          LabJudged: 4,
          LabCompliant: 3,
          LabRate: 0.75,
          OnlineDays: 30,
          OnlineCompliantDays: 30,
          OnlineRate: 1,
        },
        { Param: 'COD', LabJudged: 0, LabCompliant: 0, LabRate: null, OnlineDays: 0, OnlineCompliantDays: 0, OnlineRate: null },
      ],
    };
    const api = show(<MonthCompliance />, {
      'GET /api/7/MonthCompliance': () => [
        row,
        { ...row, ProjectId: 22, ProjectName: 'Qingshan 2', Samples: 0, Judged: 0, Compliant: 0, Rate: null, Params: [] },
      ],
    });
    const table = await screen.findByRole('region', { name: /达标情况/ });
    const first = within(table).getByText('Qingshan 1').closest('tr') as HTMLElement;
    // The samples, and NH3-N's laboratory values.
    expect(within(first).getAllByText('3/4 · 75.0 %')).toHaveLength(2);
    expect(within(first).getByText('30/30 · 100.0 %')).toBeTruthy();
    // Only parameters judged this month get a column: NH3-N, not COD.
    expect(within(table).getAllByText('氨氮').length).toBeGreaterThan(0);
    expect(within(table).queryAllByText('COD')).toEqual([]);
    const second = within(table).getByText('Qingshan 2').closest('tr') as HTMLElement;
    expect(within(second).getByText('本月无水样')).toBeTruthy();
    expect(api.callsTo('GET', '/api/7/MonthCompliance')[0]?.query.get('Month')).toMatch(/^\d{4}-\d{2}$/);
  });
});

describe('inspections', () => {
  it('records the chemicals added on a round', async () => {
    const round: PollDto = {
      Id: 3,
      ProjectId: STATION,
      ProjectName: 'Qingshan 1',
      PollTitle: 'Weekly round',
      PollContent: '',
      Results: [],
      Issues: 0,
      Chemicals: [{ Chemical: 'PAC', Quantity: 25, Unit: 'kg' }],
      ArrivedAt: Date.UTC(2026, 10, 20, 2),
      LeftAt: null,
      Inspector: 'operator',
      CreatedAt: Date.UTC(2026, 10, 20, 2),
      Photos: [],
    };
    const api = show(<InspectionsPage />, {
      'GET /api/GetPollPageList': () => [round],
      'GET /api/PollDue': () => [],
      [`GET /api/7/PollPlan/${String(STATION)}`]: () => ({ data: { ProjectId: STATION, Items: [], IntervalDays: 0 } }),
      'POST /api/PollAdd': () => ({ status: 201, data: round, message: 'Created' }),
    });
    expect((await screen.findAllByText('PAC 25 kg')).length).toBeGreaterThan(0);
    await userEvent.click(screen.getByRole('button', { name: 'Record a round' }));
    const dialog = await dialogTitled('Record a round');
    await userEvent.click(within(dialog).getByLabelText('Station'));
    await userEvent.click(await screen.findByTitle('Qingshan 1'));
    await fill(within(dialog).getByLabelText('Round'), 'Weekly round');
    await fill(within(dialog).getByLabelText('Arrived'), '2026-11-20T10:00');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add a chemical' }));
    await fill(within(dialog).getByLabelText('Chemical 1'), 'PAM');
    await fill(within(dialog).getByLabelText('Quantity of chemical 1'), '2.5');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => {
      expect(api.callsTo('POST', '/api/PollAdd')).toHaveLength(1);
    });
    expect(api.callsTo('POST', '/api/PollAdd')[0]?.body).toMatchObject({
      ProjectId: STATION,
      PollTitle: 'Weekly round',
      Chemicals: [{ Chemical: 'PAM', Quantity: 2.5, Unit: 'kg' }],
    });
  });
});

describe('the monthly report', () => {
  const report: StationReport = {
    ProjectId: STATION,
    ProjectName: 'Qingshan 1',
    Month: '2026-10',
    Standard: 'GB 18918-2002 1A',
    Operation: { TreatedM3: 1500, EnergyKWh: 600, KWhPerM3: 0.4 },
    Lab: {
      Samples: 2,
      Judged: 2,
      Compliant: 1,
      Rate: 0.5,
      Params: [{ Param: 'NH3_N', Samples: 2, Avg: 6.5, Max: 9.5, Over: 1 }],
    },
    Online: [],
    Chemicals: [{ Chemical: 'PAC', Unit: 'kg', Quantity: 37.5, PerM3: 0.025, Rounds: 2 }],
    Samples: [],
    Alarms: [],
    Repairs: { Reported: 1, Done: 1, Verified: 0, OverdueOpen: 0 },
    Inspections: { Rounds: 2, Issues: 1 },
  };

  it('shows the chemicals dosed and downloads the month as a workbook', async () => {
    // jsdom has no object URLs: the saved file is taken here instead.
    const saved: Blob[] = [];
    Object.assign(URL, {
      createObjectURL: (blob: Blob) => {
        saved.push(blob);
        return 'blob:report';
      },
      revokeObjectURL: () => undefined,
    });
    const api = show(<StationReportPage />, {
      'GET /api/7/StationReport': (call) => (call.query.get('Format') === 'xlsx' ? { data: 'workbook' } : { data: report }),
    });
    await userEvent.click(await screen.findByLabelText('Project or station'));
    await userEvent.click(await screen.findByTitle('Qingshan 1'));
    const chemicals = await screen.findByText('37.5 kg');
    expect(within(chemicals.closest('tr') as HTMLElement).getByText('0.025 kg/m³')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: /Excel/ }));
    await waitFor(() => {
      expect(api.callsTo('GET', '/api/7/StationReport').some((c) => c.query.get('Format') === 'xlsx')).toBe(true);
    });
    const download = api.callsTo('GET', '/api/7/StationReport').find((c) => c.query.get('Format') === 'xlsx');
    expect(download?.query.get('ProjectId')).toBe(String(STATION));
    await waitFor(() => {
      expect(saved).toHaveLength(1);
    });
  });
});
