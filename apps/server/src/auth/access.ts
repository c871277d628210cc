/**
 * Who may call a route. Every route declares `config.access`; a route without one is refused
 * at registration, so nothing is public by accident.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { OperateCode } from '@sluice/shared/permissions';
import { AppError } from '../http/errors.ts';
import type { UsersRepository } from '../modules/account/users.repository.ts';
import type { CurrentUser } from './current-user.ts';
import type { SessionsRepository } from './sessions.repository.ts';
import { SESSION_COOKIE, clearSessionCookie, fromOwnOrigin } from './session-cookie.ts';

export type Access =
  | 'public'
  /** any signed-in user */
  | 'session'
  /** an administrator (a role with IsAdmin) of the caller's own group */
  | 'admin'
  /** a platform administrator, who may create groups */
  | 'platform'
  /** a user whose roles hold the operate; a group administrator holds them all */
  | { operate: OperateCode };

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /**
     * One of the legacy calls the spec lists with `account` and `token` parameters: the token may
     * come in the query or body, with the account it belongs to. No other call reads a token
     * from a URL.
     */
    legacyToken?: boolean;
  }
  interface FastifyRequest {
    user: CurrentUser | null;
    token: string | null;
    tokenSource: TokenSource | null;
  }
}

/** Route parameters that name a group; they must be the caller's own. */
const GROUP_PARAMS = ['g', 'groupId', 'group'];

export type TokenSource = 'bearer' | 'cookie' | 'legacy';

/** The session token of a request and where it came from: the Bearer header, the console's cookie, or a legacy parameter. */
export function sessionToken(request: FastifyRequest): { token: string; source: TokenSource } | null {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) {
    const token = header.slice(7).trim();
    return token ? { token, source: 'bearer' } : null;
  }
  const cookie = request.cookies[SESSION_COOKIE];
  if (cookie) return { token: cookie, source: 'cookie' };
  if (request.routeOptions.config.legacyToken) {
    const legacy = legacyParameter(request, 'token');
    if (legacy) return { token: legacy, source: 'legacy' };
  }
  return null;
}

/** A legacy call's `account` or `token`, from the query or the body (spec §6). */
function legacyParameter(request: FastifyRequest, name: 'account' | 'token'): string | undefined {
  const query = request.query as Record<string, unknown> | undefined;
  const body = request.body as Record<string, unknown> | undefined;
  const value = query?.[name] ?? (body && typeof body === 'object' ? body[name] : undefined);
  return typeof value === 'string' && value ? value : undefined;
}

export const accessPlugin = fp(
  (app: FastifyInstance, opts: { users: UsersRepository; sessions: SessionsRepository }, done: () => void) => {
    app.decorateRequest('user', null);
    app.decorateRequest('token', null);
    app.decorateRequest('tokenSource', null);

    app.addHook('onRoute', (route) => {
      if (!route.config?.access) {
        throw new Error(`Route ${String(route.method)} ${route.url} declares no access`);
      }
    });

    // Before validation, so that a caller who may not make the call learns nothing about its input.
    app.addHook('preValidation', async (request, reply) => {
      const access = request.routeOptions.config.access;
      if (access === 'public' || access === undefined) return;
      const given = sessionToken(request);
      if (!given) throw new AppError(401, 'auth.required');
      const { token, source } = given;
      if (source === 'cookie' && !fromOwnOrigin(request.method, request.headers, request.host)) {
        throw new AppError(403, 'auth.crossSite');
      }
      const session = await opts.sessions.find(token);
      const user = session && (await opts.users.current(session.userId));
      if (!user) {
        // A dead cookie goes, so the browser stops sending it.
        if (source === 'cookie') clearSessionCookie(request, reply);
        throw new AppError(401, 'auth.expired');
      }
      if (user.status === 2) throw new AppError(401, 'auth.disabled');
      if (user.status === 0) throw new AppError(401, 'auth.inactive');
      if (source === 'legacy' && legacyParameter(request, 'account')?.toLowerCase() !== user.account.toLowerCase()) {
        throw new AppError(401, 'auth.expired');
      }
      request.user = user;
      request.token = token;
      request.tokenSource = source;

      const params = (request.params ?? {}) as Record<string, string>;
      for (const name of GROUP_PARAMS) {
        if (params[name] !== undefined && Number(params[name]) !== user.groupId) {
          throw new AppError(403, 'auth.otherGroup');
        }
      }
      if (access === 'admin' && !user.isAdmin) throw new AppError(403, 'auth.forbidden');
      if (access === 'platform' && !user.isPlatformAdmin) throw new AppError(403, 'auth.forbidden');
      if (typeof access === 'object' && !user.isAdmin && !(await opts.users.holdsOperate(user.id, access.operate))) {
        throw new AppError(403, 'auth.forbidden');
      }
    });
    done();
  },
  { name: 'access' },
);

/** The signed-in user of a route that is not public. */
export function currentUser(request: FastifyRequest): CurrentUser {
  if (!request.user) throw new AppError(401, 'auth.required');
  return request.user;
}
