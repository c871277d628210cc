/**
 * Connecting devices: their credentials are cached with the device (one query per device in a
 * connect storm), and a reset credential takes effect at once all the same; a connect storm is
 * admitted at a steady rate (AdmissionGate), the rest waiting their turn or, past the longest
 * wait, refused to come back later.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN, createTestApp, type TestApp } from './harness.ts';
import { connect, connectRefused } from './mqtt-helpers.ts';
import { buildDevice } from './factories.ts';
import { AdmissionGate } from '../src/mqtt/admission-gate.ts';

describe('device credentials at the broker', () => {
  let t: TestApp;
  let url: string;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    await t.app.live.start();
    url = `mqtt://127.0.0.1:${String(t.app.live.mqttPort)}`;
  });
  afterAll(async () => {
    await t.close();
  });

  it('refuses the old secret and takes the new one as soon as the credential is reset, cache or not', async () => {
    const device = await buildDevice(t.app.ctx, { groupId: 1 });
    const first = await connect(url, { clientId: device.sn, username: device.sn, password: device.secret });
    await first.endAsync();
    expect(await connectRefused(url, { clientId: device.sn, username: device.sn, password: 'a guess' })).toMatch(/password/i);

    const token = await t.login(ADMIN.account, ADMIN.password);
    const reset = await t.json<{ Password: string }>({
      method: 'PUT',
      url: '/api/1/Device/Credential',
      payload: { DeviceSn: device.sn },
      token,
    });
    expect(await connectRefused(url, { clientId: device.sn, username: device.sn, password: device.secret })).toMatch(/password/i);
    const again = await connect(url, { clientId: device.sn, username: device.sn, password: reset.data.Password });
    await again.endAsync();
  });
});

describe('admission of a connect storm', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('admits at most the rate, in arrival order, and refuses those whose turn would come too late', async () => {
    vi.useFakeTimers();
    const start = Date.now();
    // 10 a second (a tenth of a second's worth at once), waiting 1 s at most.
    const gate = new AdmissionGate(10, 1000);
    const admittedAt: number[] = [];
    const refused: number[] = [];
    for (let i = 0; i < 15; i++) {
      void gate.admit().then((ok) => {
        if (ok) admittedAt.push(Date.now() - start);
        else refused.push(i);
      });
    }
    await vi.advanceTimersByTimeAsync(0);
    // The burst: a tenth of a second's worth, at once.
    expect(admittedAt).toEqual([0, 0]);
    expect(gate.waiting).toBe(10);
    // Beyond a second's wait: refused at once.
    expect(refused).toEqual([12, 13, 14]);
    await vi.advanceTimersByTimeAsync(2000);
    expect(admittedAt).toEqual([0, 0, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000]);
    expect(gate.waiting).toBe(0);
    // Once the storm is over, the next one comes in at once.
    expect(await gate.admit()).toBe(true);
  });
});
