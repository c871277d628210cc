/** Small helpers for the configuration route tests (device types, library, templates, alarms, apps, SIM). */
import { crc32, deflateRawSync } from 'node:zlib';
import type { Body, TestApp } from './harness.ts';

export interface Reply<T> {
  status: number;
  body: Body<T>;
}

/** JSON calls as one signed-in user. */
export function client(t: TestApp, token: string, lang = 'en-US') {
  const call = async <T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown): Promise<Reply<T>> => {
    const res = await t.call({
      method,
      url: `/api${url}`,
      token,
      lang,
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
    return { status: res.statusCode, body: res.json<Body<T>>() };
  };
  return {
    get: <T>(url: string) => call<T>('GET', url),
    post: <T>(url: string, payload: unknown) => call<T>('POST', url, payload),
    put: <T>(url: string, payload: unknown) => call<T>('PUT', url, payload),
    del: <T>(url: string) => call<T>('DELETE', url),
  };
}
export type Client = ReturnType<typeof client>;

/** A ZIP file (entries deflated) with its central directory, as an APK is. */
export function zipFile(entries: Record<string, string>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(entries)) {
    const data = Buffer.from(content);
    const packed = deflateRawSync(data);
    const nameBytes = Buffer.from(name);
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, packed);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(entries).length, 8);
  end.writeUInt16LE(Object.keys(entries).length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** Firmware: bytes that are no known file type. */
export const FIRMWARE = Buffer.concat([Buffer.from([0x7f, 0x10, 0x00, 0x20]), Buffer.alloc(2048, 0xa5)]);

/** A multipart body with form fields before one file. */
export function multipartWithFields(fields: Record<string, string>, content: Buffer, fileName: string) {
  const boundary = `----sluice${Math.random().toString(16).slice(2)}`;
  const parts = Object.entries(fields).map(([name, value]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
  );
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([...parts, head, content, tail]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
