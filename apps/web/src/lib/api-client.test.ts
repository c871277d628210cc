import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError, DATA_FORMAT_ERROR, fetchAllPages, MISSING_MESSAGE, request, setApiHooks } from './api-client';
import { readCookie, setSessionCookies } from './cookies';
import { urlOf } from '../test/fetch';

/** A fake network: answers each call with the given status and body text. */
function respond(status: number, body: string | object | undefined) {
  const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  return new Response(text, { status, headers: { 'content-type': 'application/json' } });
}

const fetchMock = vi.fn<typeof fetch>();

function lastRequest(): { url: string; init: RequestInit } {
  const call = fetchMock.mock.calls.at(-1);
  if (!call) throw new Error('no request was made');
  return { url: urlOf(call[0]), init: call[1] ?? {} };
}

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  vi.unstubAllGlobals();
  setApiHooks({ onUnauthorized: () => undefined, onWrite: () => undefined });
});

describe('envelope', () => {
  it('unwraps data, message and count', async () => {
    fetchMock.mockResolvedValueOnce(respond(200, { success: true, message: 'OK', data: [{ Id: 1 }], count: 7 }));
    const result = await api.get<{ Id: number }[]>('/user', { PageNo: 1, Search: 'zh', Empty: undefined });
    expect(result).toEqual({ data: [{ Id: 1 }], message: 'OK', count: 7 });
    expect(lastRequest().url).toBe('/api/user?PageNo=1&Search=zh');
  });

  it('leaves the session to the browser’s cookie and sends the UI language and JSON bodies', async () => {
    setSessionCookies({ account: 'admin' });
    // An older console's readable token cookie is not sent as a header either.
    document.cookie = 'token=tok-123; path=/';
    fetchMock.mockResolvedValueOnce(respond(200, { success: true, message: 'Saved', data: null }));
    await api.put('/user', { UserName: 'Zhang' });
    const { init } = lastRequest();
    const headers = new Headers(init.headers);
    expect(headers.get('Authorization')).toBeNull();
    expect(init.credentials).toBe('same-origin');
    expect(headers.get('Accept-Language')).toBe('en-US');
    expect(headers.get('Content-Type')).toBe('application/json');
    expect(init.method).toBe('PUT');
    expect(init.body).toBe('{"UserName":"Zhang"}');
  });

  it('rejects success:false with the server message, status and field errors', async () => {
    fetchMock.mockResolvedValueOnce(
      respond(400, {
        success: false,
        message: 'Phone: Enter a mobile number',
        data: { errors: [{ field: 'Phone', message: 'Enter a mobile number' }] },
      }),
    );
    const error = await api.put('/user', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      message: 'Phone: Enter a mobile number',
      status: 400,
      fieldErrors: [{ field: 'Phone', message: 'Enter a mobile number' }],
    });
  });

  it("rejects success:false without a message with 'data.Message is null or undefined'", async () => {
    fetchMock.mockResolvedValueOnce(respond(200, { success: false, message: '', data: null }));
    await expect(api.get('/x')).rejects.toThrow(MISSING_MESSAGE);
  });

  it.each([
    ['an empty body', undefined],
    ['an HTML error page', '<html>Bad gateway</html>'],
    ['JSON without an envelope', { hello: 'world' }],
  ])("rejects %s with 'data format error'", async (_label, body) => {
    fetchMock.mockResolvedValueOnce(respond(502, body));
    await expect(api.get('/x')).rejects.toThrow(DATA_FORMAT_ERROR);
  });
});

describe('in-flight GET deduplication', () => {
  it('shares one request between identical GETs in flight', async () => {
    let release: (r: Response) => void = () => undefined;
    fetchMock.mockImplementationOnce(() => new Promise<Response>((resolve) => (release = resolve)));
    const first = api.get('/Type', { PageNo: 1 });
    const second = api.get('/Type', { PageNo: 1 });
    expect(second).toBe(first);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    release(respond(200, { success: true, message: 'OK', data: 1 }));
    await expect(first).resolves.toMatchObject({ data: 1 });

    fetchMock.mockResolvedValueOnce(respond(200, { success: true, message: 'OK', data: 2 }));
    await expect(api.get('/Type', { PageNo: 1 })).resolves.toMatchObject({ data: 2 });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('does not let a GET sent after a write join one sent before it', async () => {
    let release: (r: Response) => void = () => undefined;
    fetchMock.mockImplementationOnce(() => new Promise<Response>((resolve) => (release = resolve)));
    const before = api.get('/Region', { Search: 'x' });
    fetchMock.mockResolvedValueOnce(respond(200, { success: true, message: 'Deleted', data: null }));
    await api.delete('/Region/1');
    fetchMock.mockResolvedValueOnce(respond(200, { success: true, message: 'OK', data: 'after' }));
    const after = api.get('/Region', { Search: 'x' });
    expect(after).not.toBe(before);
    await expect(after).resolves.toMatchObject({ data: 'after' });
    release(respond(200, { success: true, message: 'OK', data: 'before' }));
    await expect(before).resolves.toMatchObject({ data: 'before' });
  });

  it('does not merge GETs with different parameters, nor writes', async () => {
    fetchMock.mockImplementation(() => Promise.resolve(respond(200, { success: true, message: 'OK', data: null })));
    await Promise.all([api.get('/Type', { PageNo: 1 }), api.get('/Type', { PageNo: 2 })]);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    await Promise.all([request('POST', '/Type', { body: { a: 1 } }), request('POST', '/Type', { body: { a: 1 } })]);
    expect(fetchMock).toHaveBeenCalledTimes(4);
  });
});

describe('fetchAllPages', () => {
  it('fetches 100 per page from page 1 until count is reached', async () => {
    const total = 230;
    fetchMock.mockImplementation((input) => {
      const url = new URL(urlOf(input), 'http://localhost');
      const pageNo = Number(url.searchParams.get('PageNo'));
      const size = Number(url.searchParams.get('PageSize'));
      const start = (pageNo - 1) * size;
      const rows = Array.from({ length: Math.max(0, Math.min(size, total - start)) }, (_, i) => start + i);
      return Promise.resolve(respond(200, { success: true, message: 'OK', data: rows, count: total }));
    });
    const all = await fetchAllPages<number>('/DataDefineLibrary', { Category: 'water' });
    expect(all).toHaveLength(total);
    expect(all.at(-1)).toBe(total - 1);
    const pages = fetchMock.mock.calls.map(([input]) => new URL(urlOf(input), 'http://localhost').searchParams);
    expect(pages.map((p) => p.get('PageNo'))).toEqual(['1', '2', '3']);
    expect(pages.every((p) => p.get('PageSize') === '100' && p.get('Category') === 'water')).toBe(true);
  });

  it('stops after one request when count fits in the first page', async () => {
    fetchMock.mockResolvedValueOnce(respond(200, { success: true, message: 'OK', data: [1, 2, 3], count: 3 }));
    await expect(fetchAllPages('/Category')).resolves.toEqual([1, 2, 3]);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});

describe('session and cache hooks', () => {
  it('on 401 clears the session and asks to go to sign-in with the current path', async () => {
    window.history.pushState({}, '', '/user/list?page=2');
    setSessionCookies({ account: 'admin' });
    sessionStorage.setItem('sluice.user', '{}');
    const onUnauthorized = vi.fn();
    setApiHooks({ onUnauthorized });
    fetchMock.mockResolvedValueOnce(respond(401, { success: false, message: 'Please sign in', data: null }));
    await expect(api.get('/user/myinfo')).rejects.toMatchObject({ status: 401, message: 'Please sign in' });
    expect(onUnauthorized).toHaveBeenCalledWith('/user/list?page=2');
    expect(readCookie('token')).toBeUndefined();
    expect(readCookie('isLogin')).toBeUndefined();
    expect(sessionStorage.getItem('sluice.user')).toBeNull();
  });

  it('does not treat a wrong password at sign-in as an expired session', async () => {
    const onUnauthorized = vi.fn();
    setApiHooks({ onUnauthorized });
    fetchMock.mockResolvedValueOnce(respond(401, { success: false, message: 'Wrong account or password', data: null }));
    await expect(api.post('/User', { Account: 'a', Password: 'b' }, { skipAuthRedirect: true })).rejects.toThrow(
      'Wrong account or password',
    );
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('clears the GET cache after every successful write only', async () => {
    const onWrite = vi.fn();
    setApiHooks({ onWrite });
    fetchMock.mockResolvedValueOnce(respond(200, { success: true, message: 'OK', data: null }));
    await api.get('/user/myinfo');
    expect(onWrite).not.toHaveBeenCalled();
    fetchMock.mockResolvedValueOnce(respond(400, { success: false, message: 'Invalid input', data: null }));
    await api.post('/Category', { Name: '' }).catch(() => undefined);
    expect(onWrite).not.toHaveBeenCalled();
    fetchMock.mockResolvedValueOnce(respond(201, { success: true, message: 'Created', data: { Id: 3 } }));
    await api.post('/Category', { Name: 'Water' });
    expect(onWrite).toHaveBeenCalledTimes(1);
    // a write that ends the session leaves cache clearing to the sign-out
    fetchMock.mockResolvedValueOnce(respond(200, { success: true, message: 'Password changed', data: null }));
    await api.post('/user/password', {}, { keepCache: true });
    expect(onWrite).toHaveBeenCalledTimes(1);
  });
});
