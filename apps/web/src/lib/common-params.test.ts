import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { fakeApi } from '../test/fake-api';
import { setSessionCookies } from './cookies';
import { LIBRARY_DELAY_MS, commonKeys, libraryDelay, loadCommonParams } from './common-params';

const library = [
  {
    Id: 1,
    DataKey: 'Inflow',
    DataName: 'Inflow',
    Unit: 'm3/H',
    DataType: 'readable',
    DefaultValue: '',
    Format: '',
    Model: '',
    Category: '',
  },
];
const types = [
  {
    Id: 5,
    TypeName: 'Village station (A/O)',
    DeviceTypeName: 'Village station (A/O)',
    ICON: '',
    ParentId: 0,
    Description: '',
    Status: 1,
  },
];

const warnTypes = [{ Id: 3, TypeName: 'Fault', Color: '#f5222d', Icon: 'warning' }];

function server() {
  return fakeApi({
    'GET /api/DeviceType/GetDeviceType': () => types,
    'GET /api/warntype': () => warnTypes,
    'GET /api/DataDefineLibrary': () => ({ data: library, count: 1 }),
  });
}

const libraryCalls = (api: ReturnType<typeof server>) => api.callsTo('GET', '/api/DataDefineLibrary');
const typeCalls = (api: ReturnType<typeof server>) => api.callsTo('GET', '/api/DeviceType/GetDeviceType');
const warnTypeCalls = (api: ReturnType<typeof server>) => api.callsTo('GET', '/api/warntype');

beforeEach(() => {
  vi.useFakeTimers();
  setSessionCookies({ account: 'admin' });
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('loading the common parameters (spec §2 Navigation behaviour)', () => {
  it('loads the library at once on its own screens, and 7.5 s after a navigation elsewhere', () => {
    expect(libraryDelay('/sys/dataDefine')).toBe(0);
    expect(libraryDelay('/sys/datadefine/')).toBe(0);
    expect(libraryDelay('/sys/devicetype')).toBe(0);
    expect(libraryDelay('/common/home')).toBe(LIBRARY_DELAY_MS);
    expect(LIBRARY_DELAY_MS).toBe(7500);
  });

  it('gives an administrator the device and warn types at once and the library 7.5 s later, in pages of 100', async () => {
    const api = server();
    const client = new QueryClient();
    loadCommonParams({ client, pathname: '/common/home', isAdmin: true, onFailed: vi.fn() });
    await vi.advanceTimersByTimeAsync(100);
    expect(client.getQueryData(commonKeys.deviceTypes)).toEqual(types);
    expect(client.getQueryData(commonKeys.warnTypes)).toEqual(warnTypes);
    await vi.advanceTimersByTimeAsync(LIBRARY_DELAY_MS - 300);
    expect(libraryCalls(api)).toEqual([]);
    await vi.advanceTimersByTimeAsync(200);
    await vi.waitFor(() => {
      expect(client.getQueryData(commonKeys.library)).toEqual(library);
    });
    expect(libraryCalls(api)[0]?.query.get('PageSize')).toBe('100');
  });

  it('loads the library at once on /sys/devicetype, and only once', async () => {
    const api = server();
    const client = new QueryClient();
    loadCommonParams({ client, pathname: '/sys/devicetype', isAdmin: true, onFailed: vi.fn() });
    await vi.waitFor(() => {
      expect(client.getQueryData(commonKeys.library)).toEqual(library);
    });
    loadCommonParams({ client, pathname: '/sys/dataDefine', isAdmin: true, onFailed: vi.fn() });
    await vi.advanceTimersByTimeAsync(LIBRARY_DELAY_MS * 2);
    expect(libraryCalls(api)).toHaveLength(1);
    expect(typeCalls(api)).toHaveLength(1);
    expect(warnTypeCalls(api)).toHaveLength(1);
  });

  it('never loads the library for other users, but the device and warn types for everyone', async () => {
    const api = server();
    const client = new QueryClient();
    loadCommonParams({ client, pathname: '/sys/dataDefine', isAdmin: false, onFailed: vi.fn() });
    await vi.advanceTimersByTimeAsync(LIBRARY_DELAY_MS * 2);
    expect(libraryCalls(api)).toEqual([]);
    expect(typeCalls(api)).toHaveLength(1);
    expect(warnTypeCalls(api)).toHaveLength(1);
    expect(client.getQueryData(commonKeys.warnTypes)).toEqual(warnTypes);
  });

  it('sends the user to sign-in when only the warn types fail to load', async () => {
    fakeApi({
      'GET /api/DeviceType/GetDeviceType': () => types,
      'GET /api/warntype': () => ({ status: 500, message: 'Something went wrong on the server; it has been logged' }),
    });
    const onFailed = vi.fn();
    loadCommonParams({ client: new QueryClient(), pathname: '/common/home', isAdmin: false, onFailed });
    await vi.waitFor(() => {
      expect(onFailed).toHaveBeenCalled();
    });
  });

  it('a navigation away before the delay cancels the pending load', async () => {
    const api = server();
    const client = new QueryClient();
    const cancel = loadCommonParams({ client, pathname: '/common/home', isAdmin: true, onFailed: vi.fn() });
    await vi.advanceTimersByTimeAsync(1000);
    cancel();
    await vi.advanceTimersByTimeAsync(LIBRARY_DELAY_MS);
    expect(libraryCalls(api)).toEqual([]);
  });

  it.each([
    [401, 'Please sign in'],
    [500, 'Something went wrong on the server; it has been logged'],
    [503, 'The database is not answering'],
  ])('sends the user to sign-in when the load fails with %s (any failure, spec §2)', async (status, message) => {
    fakeApi({
      'GET /api/DeviceType/GetDeviceType': () => ({ status, message }),
      'GET /api/DataDefineLibrary': () => ({ status, message }),
    });
    const onFailed = vi.fn();
    loadCommonParams({ client: new QueryClient(), pathname: '/common/home', isAdmin: false, onFailed });
    await vi.waitFor(() => {
      expect(onFailed).toHaveBeenCalled();
    });
  });

  it('does not leave when a write clears the cache while the library loads (the load is dropped, not failed)', async () => {
    let answer: (() => void) | undefined;
    fakeApi({
      'GET /api/DeviceType/GetDeviceType': () => types,
      'GET /api/warntype': () => warnTypes,
      'GET /api/DataDefineLibrary': () =>
        new Promise((resolve) => {
          answer = () => {
            resolve({ data: library, count: 1 });
          };
        }),
    });
    const onFailed = vi.fn();
    const client = new QueryClient();
    loadCommonParams({ client, pathname: '/sys/datadefine', isAdmin: true, onFailed });
    await vi.waitFor(() => {
      expect(answer).toBeDefined();
    });
    // What clearGetCache does after a write: the queries no screen watches are dropped.
    client.removeQueries({ type: 'inactive' });
    answer?.();
    await vi.advanceTimersByTimeAsync(100);
    expect(onFailed).not.toHaveBeenCalled();
  });

  it('does not leave when the loads answer', async () => {
    fakeApi({ 'GET /api/DeviceType/GetDeviceType': () => ({ data: [] }), 'GET /api/warntype': () => ({ data: [] }) });
    const onFailed = vi.fn();
    const client = new QueryClient();
    loadCommonParams({ client, pathname: '/common/home', isAdmin: false, onFailed });
    await vi.waitFor(() => {
      expect(client.getQueryData(['common', 'device-types'])).toEqual([]);
      expect(client.getQueryData(['common', 'warn-types'])).toEqual([]);
    });
    expect(onFailed).not.toHaveBeenCalled();
  });
});
