/**
 * The control panel's widgets and their states: a switch that asks before it sends (cancel sends
 * nothing and the switch keeps the device's value) and follows the command to the device's
 * answer; the set-and-current input with its progress, refusing what the server would refuse
 * with the same messages; disabled controls with their reason in auto mode, offline and for a
 * user who may only look; the message when nothing is configured.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { App, ConfigProvider } from 'antd';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DeviceControlDto } from '@sluice/shared/device-control.schema';
import { setSessionCookies } from '../../../../lib/cookies';
import { loadDeviceTypesCatalog } from '../../../../lib/feature-catalogs';
import { liveStore } from '../../../../lib/live/live-connection';
import { fakeApi } from '../../../../test/fake-api';
import { useFakeClock } from '../../../../test/fake-clock';
import { renderRoutes } from '../../../../test/render';
import { ControlPanel } from './control-panel';
import { setPointProgress } from './set-point-input';

const SN = 'SLC000000001';
const point = (Key: string, Name: string, DataType: string, Format = '', Unit = '', ShowType = '') => ({
  Key,
  Name,
  DataType,
  Format,
  Unit,
  ShowType,
});

const PANEL: DeviceControlDto = {
  DeviceSn: SN,
  Online: true,
  CanControl: true,
  ControlMode: point('ControlMode', 'Control mode', 'enum', '{"0":"Manual","1":"Auto","2":"Self-check"}', '', 'select'),
  OneKeyStop: point('OneKeyStop', 'One-key stop', 'boolean', '{"0":"Normal","1":"Stop"}', '', 'button'),
  AlarmReset: null,
  Modules: [
    {
      Id: 1,
      ModuleName: 'Lift pumps',
      ModuleType: 'pump',
      Sn: 1,
      Controls: [
        {
          Id: 11,
          ControlName: 'Lift pump 1',
          Point: point('LiftPump1Run', 'Lift pump 1 run', 'boolean', '{"0":"Stop","1":"Run"}', '', 'switch'),
          CurrentKey: null,
          Current: null,
          Feedbacks: [point('LiftPump1Fault', 'Lift pump 1 fault', 'boolean2', '{"0":"Normal","1":"Fault"}')],
          Sn: 1,
        },
        {
          Id: 12,
          ControlName: 'High level',
          Point: point('LevelHighSet', 'High level set-point', 'textbox', '{"Min":0,"Max":5,"Step":0.1}', 'm', 'input'),
          CurrentKey: 'TankLevel',
          Current: point('TankLevel', 'Tank level', 'readable', '{"Decimals":2}', 'm'),
          Feedbacks: [],
          Sn: 2,
        },
        {
          Id: 13,
          ControlName: 'On time',
          Point: point('BlowerOnTime', 'Blower on time', 'textbox', '{"Min":10,"Max":86400,"Step":1}', 's', 'time'),
          CurrentKey: null,
          Current: null,
          Feedbacks: [],
          Sn: 3,
        },
      ],
    },
  ],
};

function setUp(panel: DeviceControlDto, data: Record<string, number>) {
  const api = fakeApi({
    [`GET /api/7/${SN}/DeviceControl`]: () => ({ data: panel }),
    [`GET /api/7/${SN}/DeviceHisData/Latest`]: () => ({
      data: { DeviceSn: SN, Time: Date.now(), Online: panel.Online, State: panel.Online ? 1 : 0, Data: data, Points: [] },
    }),
    [`POST /api/7/${SN}/DeviceCommand`]: (call) => {
      const { Key, Value } = call.body as { Key: string; Value: number };
      return {
        status: 200,
        message: 'Command sent',
        data: {
          Id: 1,
          DeviceSn: SN,
          CommandId: `cmd-${Key}-${String(Value)}`,
          Key,
          KeyName: Key,
          OldValue: '0',
          NewValue: String(Value),
          SendTime: Date.now(),
          Time: null,
          State: 0,
          Message: '',
          UserName: 'Admin',
        },
      };
    },
  });
  renderRoutes(
    [
      {
        path: '/',
        element: (
          <ConfigProvider theme={{ token: { motion: false } }}>
            <App>
              <ControlPanel g={7} sn={SN} deviceName="Lift pump" />
            </App>
          </ConfigProvider>
        ),
      },
    ],
    '/',
  );
  return api;
}

/** The open dialog with this title (closed ones stay in the document, hidden). */
function dialogTitled(title: string): Promise<HTMLElement> {
  return waitFor(() => {
    const found = screen.queryAllByRole('dialog').find((d) => within(d).queryAllByText(title).length > 0);
    if (!found) throw new Error(`no open dialog titled ${title}`);
    return found;
  });
}

const MANUAL = {
  ControlMode: 0,
  LiftPump1Run: 0,
  LiftPump1Fault: 0,
  LevelHighSet: 2.5,
  TankLevel: 1,
  BlowerOnTime: 1800,
  OneKeyStop: 0,
};

describe('the control panel', () => {
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

  it('asks before switching a pump, sends nothing on cancel, and follows the command to the device’s answer', async () => {
    const user = userEvent.setup();
    const api = setUp(PANEL, MANUAL);
    const pump = await screen.findByRole('switch', { name: 'Lift pump 1' });
    await waitFor(() => {
      expect(pump.hasAttribute('disabled')).toBe(false);
    });
    expect(screen.getByText('Lift pump 1 fault: Normal')).toBeTruthy();

    await user.click(pump);
    const dialog = await dialogTitled('Set Lift pump 1’s Lift pump 1 run to: Run?');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => {
      expect(screen.queryAllByRole('dialog')).toHaveLength(0);
    });
    expect(api.callsTo('POST', `/api/7/${SN}/DeviceCommand`)).toHaveLength(0);
    expect(pump.getAttribute('aria-checked')).toBe('false');

    await user.click(pump);
    const again = await dialogTitled('Set Lift pump 1’s Lift pump 1 run to: Run?');
    await user.click(within(again).getByRole('button', { name: 'Set' }));
    await screen.findByText('Lift pump 1: sent, waiting for the device…');
    expect(api.callsTo('POST', `/api/7/${SN}/DeviceCommand`).map((c) => c.body)).toEqual([{ Key: 'LiftPump1Run', Value: 1 }]);

    // The device answers; the new value comes with its next data.
    act(() => {
      liveStore.receive('event', SN, { Type: 'ack', Id: 'cmd-LiftPump1Run-1', Key: 'LiftPump1Run', Success: true, Value: 1 });
      liveStore.receive('data', SN, { Time: Date.now() + 1000, LiftPump1Run: 1 });
    });
    await screen.findByText('Lift pump 1: done by the device (Run)');
    await waitFor(() => {
      expect(pump.getAttribute('aria-checked')).toBe('true');
    });

    // Switching it off: the device refuses, and says why.
    await user.click(pump);
    const off = await dialogTitled('Set Lift pump 1’s Lift pump 1 run to: Stop?');
    await user.click(within(off).getByRole('button', { name: 'Set' }));
    await screen.findByText('Lift pump 1: sent, waiting for the device…');
    act(() => {
      liveStore.receive('event', SN, {
        Type: 'ack',
        Id: 'cmd-LiftPump1Run-0',
        Key: 'LiftPump1Run',
        Success: false,
        Message: 'the equipment is faulted',
      });
    });
    await screen.findByText('Lift pump 1: refused by the device: the equipment is faulted');
    expect(pump.getAttribute('aria-checked')).toBe('true');
  });

  it('says when the device does not answer in time', async () => {
    const user = userEvent.setup();
    setUp(PANEL, MANUAL);
    const pump = await screen.findByRole('switch', { name: 'Lift pump 1' });
    await waitFor(() => {
      expect(pump.hasAttribute('disabled')).toBe(false);
    });
    await user.click(pump);
    const dialog = await dialogTitled('Set Lift pump 1’s Lift pump 1 run to: Run?');
    await user.click(within(dialog).getByRole('button', { name: 'Set' }));
    await screen.findByText('Lift pump 1: sent, waiting for the device…');
    act(() => {
      liveStore.receive('event', SN, { Type: 'timeout', Id: 'cmd-LiftPump1Run-1', Key: 'LiftPump1Run' });
    });
    await screen.findByText('Lift pump 1: the device did not answer in time');
  });

  it('shows a set-point beside its current value and refuses, in the form, what the server would refuse', async () => {
    const user = userEvent.setup();
    const api = setUp(PANEL, MANUAL);
    const high = await screen.findByRole('group', { name: 'High level' });
    expect(within(high).getByText('2.5 m')).toBeTruthy();
    // The current value in its own format (2 decimals).
    expect(within(high).getByText('1.00 m')).toBeTruthy();
    // 1 of 2.5: 40 %, success while the current value is at or below the set value.
    const bar = within(high).getByRole('progressbar');
    expect(bar.getAttribute('aria-valuenow')).toBe('40');

    await waitFor(() => {
      expect(within(high).getByRole('button', { name: 'Change High level' }).hasAttribute('disabled')).toBe(false);
    });
    await user.click(within(high).getByRole('button', { name: 'Change High level' }));
    const input = within(high).getByLabelText('New value of High level');
    const send = within(high).getByRole('button', { name: 'Send' });
    await user.clear(input);
    await user.type(input, '9');
    expect(screen.getAllByText('The value entered cannot be greater than 5 m').length).toBeGreaterThan(0);
    expect(send.hasAttribute('disabled')).toBe(true);
    await user.clear(input);
    await user.type(input, 'abc');
    expect(screen.getAllByText('Please enter a number').length).toBeGreaterThan(0);
    await user.clear(input);
    await user.type(input, '3.05');
    expect(screen.getAllByText('The value must go in steps of 0.1 from 0').length).toBeGreaterThan(0);
    await user.clear(input);
    await user.type(input, '3');
    await waitFor(() => {
      expect(send.hasAttribute('disabled')).toBe(false);
    });
    await user.click(send);
    const dialog = await dialogTitled('Set High level’s High level set-point to: 3 m?');
    await user.click(within(dialog).getByRole('button', { name: 'Set' }));
    await waitFor(() => {
      expect(api.callsTo('POST', `/api/7/${SN}/DeviceCommand`).map((c) => c.body)).toEqual([{ Key: 'LevelHighSet', Value: 3 }]);
    });

    // A duration must be more than 10 seconds (§5, §9).
    const onTime = screen.getByRole('group', { name: 'On time' });
    await user.click(within(onTime).getByRole('button', { name: 'Change On time' }));
    const seconds = within(onTime).getByLabelText('New value of On time');
    await user.clear(seconds);
    await user.type(seconds, '10');
    expect(screen.getAllByText('The value entered cannot be less than 10 seconds').length).toBeGreaterThan(0);
    expect(within(onTime).getByRole('button', { name: 'Send' }).hasAttribute('disabled')).toBe(true);
    await user.click(within(onTime).getByRole('button', { name: 'Cancel' }));
    expect(within(onTime).getByText('1800 s')).toBeTruthy();
  });

  it('disables manual control in auto mode with the reason, leaving the mode and one-key stop', async () => {
    setUp(PANEL, { ...MANUAL, ControlMode: 1 });
    expect(await screen.findByText('Devices cannot be controlled in auto mode')).toBeTruthy();
    const pump = await screen.findByRole('switch', { name: 'Lift pump 1' });
    expect(pump.hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('button', { name: 'Change High level' }).hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('tab', { name: 'Auto', selected: true })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Manual' }).getAttribute('aria-disabled')).not.toBe('true');
    expect(screen.getByRole('button', { name: 'One-key stop' }).hasAttribute('disabled')).toBe(false);
  });

  it('shows the controls read-only to a user who may not control the device, and disabled while it is offline', async () => {
    setUp({ ...PANEL, CanControl: false }, MANUAL);
    expect(await screen.findByText('You may see these controls but not operate this device')).toBeTruthy();
    expect((await screen.findByRole('switch', { name: 'Lift pump 1' })).hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('button', { name: 'One-key stop' }).hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('tab', { name: 'Manual' }).getAttribute('aria-disabled')).toBe('true');
  });

  it('says the device is offline, and that nothing is configured when nothing is', async () => {
    setUp({ ...PANEL, Online: false }, MANUAL);
    expect(await screen.findByText('The device is offline: controls are disabled until it is back')).toBeTruthy();
    expect((await screen.findByRole('switch', { name: 'Lift pump 1' })).hasAttribute('disabled')).toBe(true);
  });

  it('says "Control item has not been configured" for a device without controls', async () => {
    setUp({ ...PANEL, ControlMode: null, OneKeyStop: null, Modules: [] }, {});
    expect(await screen.findByText('Control item has not been configured')).toBeTruthy();
  });
});

describe('a timed control', () => {
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

  const TIMED: DeviceControlDto = {
    ...PANEL,
    Modules: [
      {
        Id: 2,
        ModuleName: 'Aeration',
        ModuleType: 'blower',
        Sn: 1,
        Controls: [
          {
            Id: 21,
            ControlName: 'On time',
            Point: point('BlowerOnTime', 'Blower on time', 'textbox', '{"Min":10,"Max":86400,"Step":1}', 's', 'time'),
            CurrentKey: 'BlowerOnElapsed',
            Current: point('BlowerOnElapsed', 'Blower on for', 'readable', '{"Decimals":0}', 's'),
            Feedbacks: [],
            Sn: 1,
          },
        ],
      },
    ],
  };

  it('counts down each second from what the device reported, and fetches the values again at zero', async () => {
    useFakeClock();
    const api = setUp(TIMED, { ControlMode: 1, BlowerOnTime: 1800, BlowerOnElapsed: 1797 });
    const group = await screen.findByRole('group', { name: 'On time' });
    expect(await within(group).findByText('3 s left')).toBeTruthy();
    const fetches = () => api.callsTo('GET', `/api/7/${SN}/DeviceHisData/Latest`).length;
    const before = fetches();
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(within(group).getByText('2 s left')).toBeTruthy();
    expect(within(group).getByText('1798 s')).toBeTruthy();
    act(() => {
      vi.advanceTimersByTime(999);
    });
    expect(within(group).getByText('2 s left')).toBeTruthy();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(within(group).getByText('1 s left')).toBeTruthy();
    // Meanwhile the device has switched to its off phase: the values fetched at zero say so.
    api.on(`GET /api/7/${SN}/DeviceHisData/Latest`, () => ({
      data: {
        DeviceSn: SN,
        Time: Date.now(),
        Online: true,
        State: 1,
        Data: { ControlMode: 1, BlowerOnTime: 1800, BlowerOnElapsed: 0 },
        Points: [],
      },
    }));
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    await waitFor(() => {
      expect(fetches()).toBe(before + 1);
    });
    await waitFor(() => {
      expect(within(group).queryByRole('timer')).toBeNull();
    });
    expect(group.querySelector('[data-key="BlowerOnElapsed"]')?.textContent).toBe('0 s');
  });

  it('does not count while the device is offline or the phase is not running', async () => {
    useFakeClock();
    setUp({ ...TIMED, Online: false }, { BlowerOnTime: 1800, BlowerOnElapsed: 1797 });
    const group = await screen.findByRole('group', { name: 'On time' });
    expect(await within(group).findByText('1797 s')).toBeTruthy();
    expect(within(group).queryByRole('timer')).toBeNull();
  });
});

describe('the progress of a set-point', () => {
  it('is floored to 2 decimals while the current value is at or below the set value, and an exception at 100 % above', () => {
    expect(setPointProgress(1, 3)).toEqual({ percent: 33.33, status: 'success' });
    expect(setPointProgress(2, 3)).toEqual({ percent: 66.66, status: 'success' });
    expect(setPointProgress(3, 3)).toEqual({ percent: 100, status: 'success' });
    expect(setPointProgress(3.2, 3)).toEqual({ percent: 100, status: 'exception' });
  });
});
