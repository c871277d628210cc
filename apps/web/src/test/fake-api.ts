/**
 * A local fake of the API for component tests: answers `METHOD /api/path` from a table of
 * handlers (exact paths), records every call, and answers 404 otherwise. The current user is an
 * administrator of group 7 unless a handler says otherwise.
 */
import { vi } from 'vitest';
import { urlOf } from './fetch';

export interface FakeCall {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

export interface FakeAnswer {
  status?: number;
  success?: boolean;
  message?: string;
  data?: unknown;
  count?: number;
}

export type FakeHandler = (call: FakeCall) => FakeAnswer | unknown[] | Promise<FakeAnswer>;

const isAnswer = (value: unknown): value is FakeAnswer =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && ('data' in value || 'status' in value);

/** Installs the fake as the global fetch; returns the recorded calls and a way to add handlers. */
export function fakeApi(handlers: Record<string, FakeHandler>) {
  const calls: FakeCall[] = [];
  const table: Record<string, FakeHandler> = {
    'GET /api/user/myinfo': () => ({
      data: {
        Id: 1,
        Account: 'admin',
        UserName: 'Admin',
        GroupId: 7,
        IsAdmin: true,
        Roles: [],
        Operates: [],
        Config: { Theme: 'light' },
      },
    }),
    ...handlers,
  };
  const fetchMock = vi.fn<typeof fetch>(async (input, init) => {
    const url = new URL(urlOf(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    let body: unknown;
    if (typeof init?.body === 'string') body = JSON.parse(init.body);
    else if (init?.body instanceof FormData) body = init.body;
    const call: FakeCall = { method, path: url.pathname, query: url.searchParams, body };
    calls.push(call);
    const handler = table[`${method} ${url.pathname}`];
    if (!handler) return new Response(JSON.stringify({ success: false, message: 'Not found', data: null }), { status: 404 });
    const raw = await handler(call);
    const answer: FakeAnswer = isAnswer(raw) ? raw : { data: raw };
    const status = answer.status ?? (method === 'POST' ? 201 : 200);
    const success = answer.success ?? status < 400;
    const envelope: Record<string, unknown> = {
      success,
      message: answer.message ?? (success ? 'OK' : 'Error'),
      data: answer.data ?? null,
    };
    if (answer.count !== undefined) envelope.count = answer.count;
    else if (Array.isArray(answer.data)) envelope.count = answer.data.length;
    return new Response(JSON.stringify(envelope), { status });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    /** The calls made with a method to a path. */
    callsTo: (method: string, path: string) => calls.filter((c) => c.method === method && c.path === path),
    on: (key: string, handler: FakeHandler) => {
      table[key] = handler;
    },
  };
}
