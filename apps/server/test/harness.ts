/**
 * Test harness: a real app on a real database, SQLite in a temporary folder and, when
 * TEST_DATABASE_URL names a reachable PostgreSQL server, a fresh PostgreSQL database too.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { createTenant, type CreatedTenant } from '../src/modules/groups/tenancy.service.ts';
import { bootstrap } from '../src/seed/bootstrap.ts';
import { buildUser } from './factories.ts';
import { createScratchDatabase, type ScratchDatabase } from './scratch.ts';

/** The first administrator, whom every test app starts with (a platform administrator, in group 1). */
export const ADMIN = { account: 'admin', password: 'Admin12345' };
/** The operator signInUsers makes in the administrator's group, with the group's default Operator role. */
export const OPERATOR = { account: 'operator', password: 'Operator123' };

export type DatabaseKind = 'sqlite' | 'postgres';

const pgUrl = process.env.TEST_DATABASE_URL;

/** The databases the suites run against: SQLite always, PostgreSQL when configured. */
export const databaseKinds: DatabaseKind[] = pgUrl ? ['sqlite', 'postgres'] : ['sqlite'];

/** A fresh database on the TEST_DATABASE_URL server. */
export async function createPgDatabase(): Promise<ScratchDatabase> {
  if (!pgUrl) throw new Error('TEST_DATABASE_URL is not set');
  return createScratchDatabase(pgUrl, 'sluice_test');
}

/** The envelope of every JSON answer. */
export interface Body<T = unknown> {
  success: boolean;
  message: string;
  data: T;
  count?: number;
}
export type Errors = { errors: { field: string; message: string }[] };

/** The fields a 400 answer names: of a response, or of an answer already read (`{ body }`). */
export function fieldsOf(res: LightMyRequestResponse | { body: Body }): string[] {
  const body = 'json' in res ? res.json<Body>() : res.body;
  return (body.data as Errors | null)?.errors.map((e) => e.field) ?? [];
}

/** The tokens of the administrator and an operator of group 1, and of the administrator of a second tenant. */
export interface Users {
  admin: string;
  operator: string;
  /** The second tenant, whose records group 1's users must not reach (and the other way round). */
  other: CreatedTenant;
  otherAdmin: string;
}

export type { CreatedTenant };

export const OTHER_TENANT = { groupName: 'Other Water', code: 'otherwater', adminAccount: 'otherboss' };

export type CallOptions = InjectOptions & { token?: string; lang?: string };

export interface TestApp {
  app: FastifyInstance;
  dataDir: string;
  /** Signs in and returns the bearer token. */
  login(account: string, password: string): Promise<string>;
  /** Signs in the administrator, makes an operator beside it and a second tenant, and signs them in. */
  signInUsers(): Promise<Users>;
  /** An injected request, signed in with `token` when given. */
  call(options: CallOptions): Promise<LightMyRequestResponse>;
  /** An injected request's JSON answer. */
  json<T>(options: CallOptions): Promise<Body<T>>;
  /**
   * Closes the app and starts a new one on the same database and data folder, as a server
   * restart does (`app` is the new one; its listeners and jobs are not started).
   */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export async function createTestApp(
  kind: DatabaseKind = 'sqlite',
  env: Record<string, string> = {},
  beforeReady?: (app: FastifyInstance) => void,
): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'sluice-test-'));
  const pgDb = kind === 'postgres' ? await createPgDatabase() : undefined;
  const config = loadConfig({
    DATA_DIR: dataDir,
    ADMIN_ACCOUNT: ADMIN.account,
    ADMIN_PASSWORD: ADMIN.password,
    // No demo data: each test file builds the rows it needs (factories.ts).
    DEMO: '0',
    LOG_LEVEL: 'silent',
    WEB_DIST: path.join(dataDir, 'no-console'),
    ...(pgDb ? { DATABASE_URL: pgDb.url } : {}),
    ...env,
  });
  const start = async () => {
    const database = await openDatabase({ dataDir: config.DATA_DIR, databaseUrl: config.DATABASE_URL });
    const started = await buildApp({ config, database, logger: false });
    await bootstrap(started.ctx);
    beforeReady?.(started);
    await started.ready();
    return started;
  };
  let app = await start();

  const call: TestApp['call'] = ({ token, lang, headers, ...options }) =>
    app.inject({
      ...options,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(lang ? { 'accept-language': lang } : {}),
        ...headers,
      },
    });

  const login: TestApp['login'] = async (account, password) => {
    const res = await call({ method: 'POST', url: '/api/User', payload: { Account: account, Password: password } });
    if (res.statusCode !== 200) throw new Error(`login ${account} failed: ${res.body}`);
    return res.json<{ data: { Token: string } }>().data.Token;
  };

  return {
    get app() {
      return app;
    },
    dataDir,
    call,
    login,
    async json<T>(options: CallOptions) {
      return (await call(options)).json<Body<T>>();
    },
    async signInUsers() {
      const admin = await login(ADMIN.account, ADMIN.password);
      const { group_id: groupId } = await app.ctx.db
        .selectFrom('users')
        .select('group_id')
        .where('account', '=', ADMIN.account)
        .executeTakeFirstOrThrow();
      await buildUser(app.ctx.db, { groupId, ...OPERATOR, roles: ['Operator'] });
      const operator = await login(OPERATOR.account, OPERATOR.password);
      const other = await createTenant(app.ctx.db, OTHER_TENANT);
      const otherAdmin = await login(OTHER_TENANT.adminAccount, other.password);
      return { admin, operator, other, otherAdmin };
    },
    async restart() {
      await app.close();
      app = await start();
    },
    async close() {
      await app.close();
      await pgDb?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Sample uploads: a 1×1 PNG, the start of a JPEG, and a Windows program (to be refused whatever its name says). */
export const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from(
    '0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4f70000000049454e44ae426082',
    'hex',
  ),
]);
export const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 2)]);
export const EXE = Buffer.concat([Buffer.from('MZ\x90\x00'), Buffer.alloc(200)]);

/** A multipart body with one file, for upload calls. */
export function multipartFile(content: Buffer, fileName: string, contentType = 'application/octet-stream') {
  const boundary = `----sluice${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: ${contentType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([head, content, tail]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
