/**
 * Common parameters of the console (spec §2 Navigation behaviour, §4 Session): the device types
 * and the warn types, loaded for everyone at start, and the full data-definition library, loaded for administrators — at once on
 * /sys/dataDefine and /sys/devicetype, 7.5 s after the navigation elsewhere — in the
 * background, so no page waits for them. A load that fails, whatever the reason, sends the user to sign-in (spec §2).
 * Screens that need them read the same queries.
 */
import { useEffect, useRef } from 'react';
import { CancelledError, queryOptions, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router';
import type { DataDefineDto } from '@sluice/shared/data-define.schema';
import type { DeviceTypeDto } from '@sluice/shared/device-type.schema';
import type { WarnTypeDto } from '@sluice/shared/warn.schema';
import { api, fetchAllPages, loginPath } from './api-client';
import { myInfoQueryOptions } from './current-user';
import { leaveSession } from './session';

/** Spec §9: the library loads 7.5 s after a navigation, except on its own screens. */
export const LIBRARY_DELAY_MS = 7500;
const IMMEDIATE_PATHS = ['/sys/datadefine', '/sys/devicetype'];
const STALE_MS = 10 * 60_000;

export const commonKeys = {
  all: ['common'] as const,
  deviceTypes: ['common', 'device-types'] as const,
  warnTypes: ['common', 'warn-types'] as const,
  library: ['common', 'data-define-library'] as const,
};

/** DeviceType/GetDeviceType: every type of the group. */
export const deviceTypesQueryOptions = () =>
  queryOptions({
    queryKey: commonKeys.deviceTypes,
    queryFn: async (): Promise<DeviceTypeDto[]> => {
      const { data } = await api.get<DeviceTypeDto[]>('/DeviceType/GetDeviceType');
      return Array.isArray(data) ? data : [];
    },
    staleTime: STALE_MS,
  });

/** warntype: every warn type of the group, by name (notice tabs, filters, pickers). */
export const warnTypesQueryOptions = () =>
  queryOptions({
    queryKey: commonKeys.warnTypes,
    queryFn: async (): Promise<WarnTypeDto[]> => {
      const { data } = await api.get<WarnTypeDto[]>('/warntype', { OrderBy: 'TypeName' });
      return Array.isArray(data) ? data : [];
    },
    staleTime: STALE_MS,
  });

/** The whole data-definition library, fetched in pages of 100 (spec §7). */
export const dataDefineLibraryQueryOptions = () =>
  queryOptions({
    queryKey: commonKeys.library,
    queryFn: () => fetchAllPages<DataDefineDto>('/DataDefineLibrary', { OrderBy: 'DataKey', OrderType: 'asc' }),
    staleTime: STALE_MS,
  });

export function useDeviceTypes() {
  return useQuery(deviceTypesQueryOptions());
}

export function useWarnTypes() {
  return useQuery(warnTypesQueryOptions());
}

/** The library, for screens that pick data points (administrators' screens). */
export function useDataDefineLibrary(enabled = true) {
  return useQuery({ ...dataDefineLibraryQueryOptions(), enabled });
}

/** How long after a navigation to `pathname` the library loads. */
export function libraryDelay(pathname: string): number {
  const path = pathname.toLowerCase().replace(/\/+$/, '');
  return IMMEDIATE_PATHS.includes(path) ? 0 : LIBRARY_DELAY_MS;
}

interface LoadOptions {
  client: QueryClient;
  pathname: string;
  isAdmin: boolean;
  /** Called when a load fails, whatever the reason (spec §2: failed loading goes to sign-in); not when the cache dropped it. */
  onFailed: () => void;
}

/**
 * Starts the loads a navigation asks for: device and warn types at once when missing, the library for
 * administrators after its delay when missing. Returns a function cancelling the pending timer.
 */
export function loadCommonParams({ client, pathname, isAdmin, onFailed }: LoadOptions): () => void {
  // A load the cache itself dropped while it ran (after a write every query not on screen is
  // removed, these included) did not fail: it is loaded again on the next navigation.
  const fail = (error: unknown) => {
    if (!(error instanceof CancelledError)) onFailed();
  };
  const missing = (key: readonly unknown[]) => {
    const state = client.getQueryState(key);
    return state?.data === undefined && state?.fetchStatus !== 'fetching';
  };
  if (missing(commonKeys.deviceTypes)) client.query(deviceTypesQueryOptions()).catch(fail);
  if (missing(commonKeys.warnTypes)) client.query(warnTypesQueryOptions()).catch(fail);
  if (!isAdmin) return () => undefined;
  const loadLibrary = () => {
    if (missing(commonKeys.library)) client.query(dataDefineLibraryQueryOptions()).catch(fail);
  };
  const delay = libraryDelay(pathname);
  if (delay === 0) {
    loadLibrary();
    return () => undefined;
  }
  const timer = setTimeout(loadLibrary, delay);
  return () => {
    clearTimeout(timer);
  };
}

/**
 * Runs the loads on every navigation inside the signed-in shell (renders nothing). The library
 * timer restarts with each navigation, and a navigation to the library's screens loads it at once.
 */
export function CommonParamsLoader() {
  const client = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const { pathname } = location;
  const { data: user } = useQuery(myInfoQueryOptions());
  const isAdmin = user?.IsAdmin === true;
  const signedIn = user !== undefined;
  const returnTo = location.pathname + location.search;
  // A refused load leaves for sign-in, coming back here afterwards (unless already on the way).
  const leave = useRef(() => undefined as unknown);
  useEffect(() => {
    leave.current = () => {
      if (window.location.pathname.startsWith('/login')) return;
      void leaveSession(() => navigate(loginPath(returnTo), { replace: true }), { revoke: false });
    };
  }, [navigate, returnTo]);

  useEffect(() => {
    if (!signedIn) return undefined;
    return loadCommonParams({
      client,
      pathname,
      isAdmin,
      onFailed: () => {
        leave.current();
      },
    });
  }, [client, pathname, isAdmin, signedIn]);
  return null;
}
