/**
 * The one API client of the console: base /api, the session in the server's HttpOnly cookie
 * (sent by the browser on these same-origin calls; the console never sees the token),
 * Accept-Language from the UI language, JSON and FormData bodies, the
 * `{ success, message, data, count? }` envelope, 401 handling, deduplication of identical
 * in-flight GETs, and a write hook that clears the GET cache after every successful write.
 */
import type { FieldError } from '@sluice/shared/envelope';
import { clearSessionCookies } from './cookies';
import { currentLanguage, i18n } from './i18n';

export const API_BASE = '/api';
export const BULK_PAGE_SIZE = 100;

export const MISSING_MESSAGE = 'data.Message is null or undefined';
export const DATA_FORMAT_ERROR = 'data format error';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly fieldErrors: FieldError[];
  readonly data: unknown;

  constructor(message: string, options: { status: number; fieldErrors?: FieldError[]; data?: unknown }) {
    super(message);
    this.status = options.status;
    this.fieldErrors = options.fieldErrors ?? [];
    this.data = options.data;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** A successful response, unwrapped from its envelope. */
export interface ApiResponse<T> {
  data: T;
  message: string;
  count?: number;
}

export type QueryValue = string | number | boolean | null | undefined;
export type QueryParams = Record<string, QueryValue | readonly QueryValue[]>;

export interface RequestOptions {
  params?: QueryParams;
  body?: unknown;
  signal?: AbortSignal;
  /** Do not treat a 401 as an expired session (the sign-in call answers 401 for a wrong password). */
  skipAuthRedirect?: boolean;
  /**
   * Skip clearing the GET cache after a successful write: only for writes that end the session
   * (the caller then forgets every cache itself), so nothing refetches with a revoked token.
   */
  keepCache?: boolean;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

interface Hooks {
  /** Called with the path to return to when the session is missing or expired. */
  onUnauthorized: (returnTo: string) => void;
  /** Called after every successful write; clears the GET cache. */
  onWrite: () => void;
}

const hooks: Hooks = {
  onUnauthorized: (returnTo) => {
    window.location.assign(loginPath(returnTo));
  },
  onWrite: () => undefined,
};

export function setApiHooks(next: Partial<Hooks>): void {
  Object.assign(hooks, next);
}

export function loginPath(returnTo: string | undefined): string {
  if (!returnTo || returnTo === '/' || returnTo.startsWith('/login')) return '/login';
  return `/login?redirect=${encodeURIComponent(returnTo)}`;
}

export function buildUrl(path: string, params?: QueryParams): string {
  const url = `${API_BASE}${path.startsWith('/') ? path : `/${path}`}`;
  if (!params) return url;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    const values: readonly QueryValue[] = Array.isArray(value) ? value : [value as QueryValue];
    for (const item of values) {
      if (item === undefined || item === null) continue;
      search.append(key, String(item));
    }
  }
  const query = search.toString();
  return query ? `${url}?${query}` : url;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readFieldErrors(data: unknown): FieldError[] {
  if (!isRecord(data) || !Array.isArray(data.errors)) return [];
  return data.errors.flatMap((item: unknown) =>
    isRecord(item) && typeof item.field === 'string' && typeof item.message === 'string'
      ? [{ field: item.field, message: item.message }]
      : [],
  );
}

const inFlight = new Map<string, Promise<ApiResponse<unknown>>>();

async function send<T>(method: Method, path: string, options: RequestOptions): Promise<ApiResponse<T>> {
  const headers = new Headers({ Accept: 'application/json', 'Accept-Language': currentLanguage() });

  let body: BodyInit | undefined;
  if (options.body instanceof FormData) {
    body = options.body; // the browser sets the multipart boundary
  } else if (options.body !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(options.body);
  }

  let response: Response;
  try {
    response = await fetch(buildUrl(path, options.params), {
      method,
      headers,
      body,
      signal: options.signal,
      credentials: 'same-origin',
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(i18n.t('errors.network'), { status: 0 });
  }

  let envelope: unknown;
  try {
    const text = await response.text();
    envelope = text ? JSON.parse(text) : undefined;
  } catch {
    envelope = undefined;
  }

  if (response.status === 401 && !options.skipAuthRedirect) {
    clearSessionCookies();
    sessionStorage.clear();
    hooks.onUnauthorized(window.location.pathname + window.location.search);
  }

  if (!isRecord(envelope) || typeof envelope.success !== 'boolean') {
    throw new ApiError(DATA_FORMAT_ERROR, { status: response.status });
  }
  const message = typeof envelope.message === 'string' ? envelope.message : '';
  if (!envelope.success || !response.ok) {
    throw new ApiError(message || MISSING_MESSAGE, {
      status: response.status,
      fieldErrors: readFieldErrors(envelope.data),
      data: envelope.data,
    });
  }

  if (method !== 'GET') {
    // GETs sent before this write may answer what it changed: later ones must not join them.
    inFlight.clear();
    if (!options.keepCache) hooks.onWrite();
  }
  const result: ApiResponse<T> = { data: envelope.data as T, message };
  if (typeof envelope.count === 'number') result.count = envelope.count;
  return result;
}

/** Any call, answering the unwrapped envelope. Identical GETs in flight share one request. */
export function request<T>(method: Method, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
  if (method !== 'GET' || options.signal) return send<T>(method, path, options);
  const key = buildUrl(path, options.params);
  const pending = inFlight.get(key);
  if (pending) return pending as Promise<ApiResponse<T>>;
  const promise = send<T>(method, path, options).finally(() => {
    inFlight.delete(key);
  });
  inFlight.set(key, promise);
  return promise;
}

export const api = {
  get: <T>(path: string, params?: QueryParams, options?: Omit<RequestOptions, 'params' | 'body'>) =>
    request<T>('GET', path, { ...options, params }),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>) =>
    request<T>('POST', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>) => request<T>('PUT', path, { ...options, body }),
  delete: <T>(path: string, options?: RequestOptions) => request<T>('DELETE', path, options),
};

/**
 * Fetches a whole list page by page (spec §7 "Bulk lists"): 100 per page from page 1 until
 * `count` items have arrived (or a page comes back short).
 */
export async function fetchAllPages<T>(path: string, params: QueryParams = {}): Promise<T[]> {
  const items: T[] = [];
  for (let pageNo = 1; ; pageNo++) {
    const page = await api.get<T[]>(path, { ...params, PageNo: pageNo, PageSize: BULK_PAGE_SIZE });
    const rows = Array.isArray(page.data) ? page.data : [];
    items.push(...rows);
    const total = page.count ?? items.length;
    if (items.length >= total || rows.length < BULK_PAGE_SIZE || rows.length === 0) return items;
  }
}

/** The hooks, for the upload and download helpers of lib/api-transfer.ts (kept out of the start-up code). */
export function apiHooks(): Readonly<Hooks> {
  return hooks;
}

/** The field errors of an error envelope's data. */
export function fieldErrorsOf(data: unknown): FieldError[] {
  return readFieldErrors(data);
}
