/**
 * Who may call a route. Every route declares `config.access`; a route without one is refused
 * at registration, so nothing is public by accident.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { OperateCode } from '@sluice/shared/permissions';
import { AppError } from '../http/errors.ts';
import type { UsersRepository, CurrentUser } from '../modules/account/users.repository.ts';
import type { SessionsRepository } from './sessions.repository.ts';

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
  }
  interface FastifyRequest {
    user: CurrentUser | null;
    token: string | null;
  }
}

/** Route parameters that name a group; they must be the caller's own. */
const GROUP_PARAMS = ['g', 'groupId', 'group'];

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim() || null;
  // Legacy clients send account and token as parameters (spec §6).
  const query = request.query as Record<string, unknown> | undefined;
  const body = request.body as Record<string, unknown> | undefined;
  const legacy = query?.token ?? (body && typeof body === 'object' ? body.token : undefined);
  return typeof legacy === 'string' && legacy ? legacy : null;
}

export const accessPlugin = fp(
  (app: FastifyInstance, opts: { users: UsersRepository; sessions: SessionsRepository }, done: () => void) => {
    app.decorateRequest('user', null);
    app.decorateRequest('token', null);

    app.addHook('onRoute', (route) => {
      if (!route.config?.access) {
        throw new Error(`Route ${String(route.method)} ${route.url} declares no access`);
      }
    });

    // Before validation, so that a caller who may not make the call learns nothing about its input.
    app.addHook('preValidation', async (request) => {
      const access = request.routeOptions.config.access;
      if (access === 'public' || access === undefined) return;
      const token = bearerToken(request);
      if (!token) throw new AppError(401, 'auth.required');
      const session = await opts.sessions.find(token);
      if (!session) throw new AppError(401, 'auth.expired');
      const user = await opts.users.current(session.userId);
      if (!user) throw new AppError(401, 'auth.expired');
      if (user.status === 2) throw new AppError(401, 'auth.disabled');
      if (user.status === 0) throw new AppError(401, 'auth.inactive');
      request.user = user;
      request.token = token;

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
