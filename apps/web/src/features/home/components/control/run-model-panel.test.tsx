/**
 * The run model on the Control tab: a duty/standby system with its running pump marked and its
 * turn counted down; "switch to standby now" asks, sends the rotation and follows the device's
 * answer; a new system is refused in the form as the server would refuse it; the empty, failed
 * and view-only states.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { App, ConfigProvider } from 'antd';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DeviceControlDto } from '@sluice/shared/device-control.schema';
import type { RunModelDto } from '@sluice/shared/run-model.schema';
import { setSessionCookies } from '../../../../lib/cookies';
import { loadDeviceTypesCatalog } from '../../../../lib/feature-catalogs';
import { liveStore } from '../../../../lib/live/live-connection';
import { fakeApi, type FakeHandler } from '../../../../test/fake-api';
import { renderRoutes } from '../../../../test/render';
import { ControlPanel } from './control-panel';

const SN = 'SLR000000001';
const base = `/api/7/${SN}`;

const panel = (canControl: boolean): DeviceControlDto => ({
  DeviceSn: SN,
  Online: true,
  CanControl: canControl,
  ControlMode: null,
  OneKeyStop: null,
  AlarmReset: null,
  Modules: [],
});

const step = (Id: number, Accessory: string, Key: string, Sequence: number, ElapsedKey: string | null) => ({
  Id,
  AccessoryId: Id * 10,
  Accessory,
  ControlName: `${Accessory} run`,
  Key,
  KeyName: `${Accessory} run`,
  RunTime: 3600,
  ElapsedKey,
  Sequence,
});

const MODEL: RunModelDto = {
  DeviceSn: SN,
  Systems: [
    {
      Id: 3,
      DeviceSn: SN,
      Name: 'Lift pumps',
      RestTime: 0,
      Accessories: [],
      Steps: [step(1, '1#', 'Pump1Run', 1, 'Pump1Elapsed'), step(2, '2#', 'Pump2Run', 2, 'Pump2Elapsed')],
    },
  ],
  Switches: [
    { Id: 21, Key: 'Pump1Run', Name: 'Pump 1 run', DataType: 'boolean' },
    { Id: 22, Key: 'Pump2Run', Name: 'Pump 2 run', DataType: 'boolean' },
  ],
  Numbers: [{ Id: 23, Key: 'Pump1Elapsed', Name: 'Pump 1 on for', DataType: 'readable' }],
};

function setUp(options: { model?: FakeHandler; canControl?: boolean; data?: Record<string, number> }) {
  const api = fakeApi({
    [`GET ${base}/DeviceControl`]: () => ({ data: panel(options.canControl ?? true) }),
    [`GET ${base}/DeviceHisData/Latest`]: () => ({
      data: {
        DeviceSn: SN,
        Time: Date.now(),
        Online: true,
        State: 1,
        Data: options.data ?? { Pump1Run: 1, Pump2Run: 0, Pump1Elapsed: 3590, Pump2Elapsed: 0 },
        Points: [],
      },
    }),
    [`GET ${base}/DeviceRunModel`]: options.model ?? (() => ({ data: MODEL })),
    [`POST ${base}/DeviceRunModel/Rotate`]: () => ({
      status: 200,
      data: {
        Id: 9,
        DeviceSn: SN,
        CommandId: 'rotate-1',
        Key: '$Rotate',
        KeyName: 'Lift pumps',
        OldValue: '',
        NewValue: '3',
        SendTime: Date.now(),
        Time: null,
        State: 0,
        Message: '',
        UserName: 'Admin',
      },
    }),
    [`POST ${base}/DeviceSystem/AddDeviceSystem`]: (call) => ({ data: { Id: 4, ...(call.body as object) } }),
    [`PUT ${base}/DeviceSystemCotrolData`]: (call) => ({ data: { ...(call.body as object) } }),
    [`GET ${base}/DeviceAccessory`]: () => ({ data: [{ Id: 5, DeviceSn: SN, Name: 'PAC dosing pump', ICON: '' }], count: 1 }),
  });
  renderRoutes(
    [
      {
        path: '/',
        element: (
          <ConfigProvider theme={{ token: { motion: false } }}>
            <App>
              <ControlPanel g={7} sn={SN} deviceName="Pump well" />
            </App>
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
    if (!found) throw new Error(`no open dialog titled ${title}`);
    return found;
  });
}

describe('the run model panel', () => {
  beforeAll(async () => {
    await loadDeviceTypesCatalog();
  });
  beforeEach(() => {
    setSessionCookies({ account: 'admin' });
    liveStore.clear();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('marks the running pump, counts its turn down, and switches to the standby after the question', async () => {
    const user = userEvent.setup();
    const api = setUp({});
    const system = await screen.findByRole('group', { name: 'Lift pumps' });
    const one = within(system).getByRole('listitem', { name: '1#' });
    const two = within(system).getByRole('listitem', { name: '2#' });
    expect(within(one).getByText('Running')).toBeTruthy();
    expect(within(two).getByText('Standby')).toBeTruthy();
    expect(within(one).getByRole('timer').textContent).toBe('10 s left, then 2# takes over');
    expect(within(one).getByText('1# run · 1 h')).toBeTruthy();

    const rotate = within(system).getByRole('button', { name: 'Switch to standby now' });
    await waitFor(() => {
      expect(rotate.hasAttribute('disabled')).toBe(false);
    });
    await user.click(rotate);
    const cancel = await dialogTitled('Lift pumps: stop the running equipment and switch to 2# now?');
    await user.click(within(cancel).getByRole('button', { name: 'Cancel' }));
    expect(api.callsTo('POST', `${base}/DeviceRunModel/Rotate`)).toHaveLength(0);

    await user.click(rotate);
    const ask = await dialogTitled('Lift pumps: stop the running equipment and switch to 2# now?');
    await user.click(within(ask).getByRole('button', { name: 'Switch to standby now' }));
    await screen.findByText('Lift pumps: sent, waiting for the device…');
    expect(api.callsTo('POST', `${base}/DeviceRunModel/Rotate`).map((c) => c.body)).toEqual([{ SystemId: 3 }]);

    // The device hands over and reports its pumps.
    act(() => {
      liveStore.receive('event', SN, { Type: 'ack', Id: 'rotate-1', Key: '$Rotate', Success: true, Value: 3 });
      liveStore.receive('data', SN, { Time: Date.now() + 1000, Pump1Run: 0, Pump2Run: 1, Pump1Elapsed: 0, Pump2Elapsed: 1 });
    });
    await screen.findByText('Lift pumps: done by the device (2#)');
    await waitFor(() => {
      expect(within(two).getByText('Running')).toBeTruthy();
    });
    expect(within(one).getByText('Standby')).toBeTruthy();
  });

  it('says when there is no run system and refuses a short rest in the form, with the server’s rule', async () => {
    const user = userEvent.setup();
    const api = setUp({ model: () => ({ data: { ...MODEL, Systems: [] } }) });
    await screen.findByText('No run system yet: add one, e.g. lift pumps 1# and 2# running in turn');
    await user.click(screen.getByRole('button', { name: 'Add run system' }));
    const dialog = await dialogTitled('Add run system');
    await user.type(within(dialog).getByLabelText('Rest between turns'), '5');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await within(dialog).findByText('Required');
    await within(dialog).findByText('The value entered cannot be less than 10 seconds');
    expect(api.callsTo('POST', `${base}/DeviceSystem/AddDeviceSystem`)).toHaveLength(0);

    await user.type(within(dialog).getByLabelText('Name'), 'Lift pumps');
    await user.clear(within(dialog).getByLabelText('Rest between turns'));
    await user.type(within(dialog).getByLabelText('Rest between turns'), '60');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => {
      expect(api.callsTo('POST', `${base}/DeviceSystem/AddDeviceSystem`).map((c) => c.body)).toEqual([
        { Name: 'Lift pumps', RestTime: 60 },
      ]);
    });
  });

  it('lists the device’s equipment under the run model', async () => {
    const user = userEvent.setup();
    const api = setUp({});
    const region = await screen.findByRole('region', { name: 'Run model' });
    await user.click(within(region).getByRole('button', { name: /Equipment of this device/ }));
    await within(region).findByText('PAC dosing pump');
    expect(api.callsTo('GET', `${base}/DeviceAccessory`).length).toBeGreaterThan(0);
    expect(within(region).getByRole('button', { name: /Add equipment to the list/ })).toBeTruthy();
  });

  it('changes a step’s run time, refusing one of 10 s or less as the server would', async () => {
    const user = userEvent.setup();
    const api = setUp({});
    const system = await screen.findByRole('group', { name: 'Lift pumps' });
    await user.click(within(system).getByRole('button', { name: 'Change 1#' }));
    const dialog = await dialogTitled('Change 1# in the rotation');
    const runTime = within(dialog).getByLabelText('Run time');
    expect((runTime as HTMLInputElement).value).toBe('3600');
    await user.clear(runTime);
    await user.type(runTime, '10');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await within(dialog).findByText('The value entered cannot be less than 10 seconds');
    expect(api.callsTo('PUT', `${base}/DeviceSystemCotrolData`)).toHaveLength(0);
    await user.clear(runTime);
    await user.type(runTime, '1800');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => {
      expect(api.callsTo('PUT', `${base}/DeviceSystemCotrolData`).map((c) => c.body)).toEqual([
        { Id: 1, ControlName: 'Pump 1 run', DataValue: 1800, DataDefineId: 21, AssociateDefineId: 23, SequenceIn: 1 },
      ]);
    });
  });

  it('shows a failed load with a retry, and only looking to a user who may not control the device', async () => {
    const user = userEvent.setup();
    let fail = true;
    setUp({
      canControl: false,
      model: () => (fail ? { status: 500, message: 'Database unavailable', data: null } : { data: MODEL }),
    });
    const region = await screen.findByRole('region', { name: 'Run model' });
    await within(region).findByText('Database unavailable');
    fail = false;
    await user.click(within(region).getByRole('button', { name: 'Try again' }));
    const system = await within(region).findByRole('group', { name: 'Lift pumps' });
    expect(within(system).getByRole('listitem', { name: '1#' })).toBeTruthy();
    expect(within(region).queryByRole('button', { name: 'Switch to standby now' })).toBeNull();
    expect(within(region).queryByRole('button', { name: 'Add run system' })).toBeNull();
    expect(within(region).queryByRole('button', { name: 'Send to device' })).toBeNull();
  });
});
