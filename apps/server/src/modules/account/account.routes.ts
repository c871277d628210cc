/** Account calls of spec §7: sign-in, sessions, own profile and passwords. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idRef } from '@sluice/shared/schema-fields';
import {
  changePasswordRequest,
  legacyCredentials,
  loginRequest,
  registerRequest,
  sessionDto,
  setPasswordRequest,
  updateConfigRequest,
  updateProfileRequest,
  userConfigSchema,
  userDto,
} from '@sluice/shared/account.schema';
import { currentUser } from '../../auth/access.ts';
import { clearSessionCookie, setSessionCookie } from '../../auth/session-cookie.ts';
import { AppError } from '../../http/errors.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { parseConfig } from './users.repository.ts';
import { fromBody, noteAudit, type AuditIdSource } from '../audit/audit-trail.ts';
import { sessionSubject, userSubject } from '../users/user.audit.ts';

/** The caller's own account. */
const self: AuditIdSource = (request) => request.user?.id;

const tags = ['Account'];

export function accountRoutes(root: FastifyInstance): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { users, sessions, account, avatars } = app.ctx;

  const profileOf = async (id: number, groupId: number) => {
    const profile = await users.profile(id, groupId);
    if (!profile) throw new AppError(404, 'error.notFound');
    return profile;
  };

  app.post(
    '/User',
    {
      // Refused sign-ins are entries too (a lock-out's further attempts are not: they are counted, not tried).
      config: { access: 'public', audit: { subject: sessionSubject, action: 'signIn', recordRefusals: true } },
      schema: { tags, summary: 'Sign in', body: loginRequest, response: { 200: envelopeOf(sessionDto) } },
    },
    async (request, reply) => {
      let session;
      try {
        session = await account.login(request.body.Account, request.body.Password, request.ip);
      } catch (error) {
        if (error instanceof AppError && error.key !== 'auth.locked') {
          const target = await users.findByAccount(request.body.Account);
          noteAudit(request, {
            action: 'signInFailed',
            groupId: target?.group_id ?? null,
            after: { Account: request.body.Account, Reason: error.key },
          });
        }
        throw error;
      }
      noteAudit(request, { actor: { id: session.UserId, account: session.Account, groupId: session.GroupId } });
      // The console keeps the session in the HttpOnly cookie; API clients use the answer's Token.
      setSessionCookie(request, reply, session.Token, session.ExpiresAt);
      return ok(request, session);
    },
  );

  app.post(
    '/user/Register',
    {
      config: { access: 'public', audit: { subject: userSubject, action: 'register' } },
      schema: {
        tags,
        summary:
          'Register into a group by its code; an administrator activates the account. One answer (202) whether or not the code and account were usable, so that it tells nothing about which exist',
        body: registerRequest,
      },
    },
    async (request, reply) => {
      const created = await account.register(request.body, request.ip);
      // Only what was registered is told to the group (a wrong code or a taken account is no one's).
      noteAudit(request, created ? { id: created.id, groupId: created.groupId } : { groupId: null, after: null });
      return reply.status(202).send(ok(request, null, { message: 'auth.registrationReceived' }));
    },
  );

  app.post(
    '/user/UserUpdateToken',
    {
      config: { access: 'session', audit: { subject: sessionSubject, action: 'renewSession' } },
      schema: { tags, summary: 'Exchange the session token for a fresh one' },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const session = await account.renew(user.id, request.token ?? '');
      if (request.tokenSource === 'cookie') setSessionCookie(request, reply, session.token, session.expiresAt);
      return ok(request, { Token: session.token, ExpiresAt: session.expiresAt });
    },
  );

  app.get(
    '/user/logout',
    {
      config: { access: 'session', audit: { subject: sessionSubject, action: 'signOut' } },
      schema: { tags, summary: 'Sign out: revoke the token, clear the session cookie and close its live connections' },
    },
    async (request, reply) => {
      await sessions.revoke(request.token ?? '');
      clearSessionCookie(request, reply);
      return ok(request, null, { message: 'auth.loggedOut' });
    },
  );

  app.get(
    '/user/myinfo',
    { config: { access: 'session' }, schema: { tags, summary: 'The signed-in user', response: { 200: envelopeOf(userDto) } } },
    async (request) => {
      const user = currentUser(request);
      return ok(request, await profileOf(user.id, user.groupId));
    },
  );

  app.get(
    '/user/GetUser',
    {
      config: { access: 'session', legacyToken: true },
      schema: { tags, summary: 'Legacy: the user of an account and token', querystring: legacyCredentials },
    },
    async (request) => {
      const user = currentUser(request);
      if (user.account.toLowerCase() !== request.query.account.toLowerCase()) throw new AppError(401, 'auth.expired');
      return ok(request, await profileOf(user.id, user.groupId));
    },
  );

  app.put(
    '/user',
    {
      config: { access: 'session', audit: { subject: userSubject, id: self } },
      schema: { tags, summary: 'Edit own profile', body: updateProfileRequest },
    },
    async (request) => {
      const user = currentUser(request);
      const { UserName, Email, Phone } = request.body;
      await users.update(user.id, user.groupId, { user_name: UserName, email: Email ?? '', phone: Phone ?? '' });
      return ok(request, await profileOf(user.id, user.groupId), { message: 'saved' });
    },
  );

  app.post(
    '/user/password',
    {
      config: { access: 'session', audit: { subject: userSubject, action: 'update', id: self } },
      schema: { tags, summary: 'Change own password (signs out every session)', body: changePasswordRequest },
    },
    async (request) => {
      const user = currentUser(request);
      await account.changeOwnPassword(user.id, user.groupId, request.body.OldPassword, request.body.Password);
      return ok(request, null, { message: 'auth.passwordChanged' });
    },
  );

  app.put(
    '/user/password',
    {
      config: { access: 'admin', audit: { subject: userSubject, id: fromBody('Id') } },
      schema: { tags, summary: "An administrator sets another user's password", body: setPasswordRequest },
    },
    async (request) => {
      const user = currentUser(request);
      await app.ctx.userAdmin.guardPlatformAdmin(request.body.Id, user);
      await account.setPassword(request.body.Id, user.groupId, request.body.Password);
      return ok(request, null, { message: 'saved' });
    },
  );

  app.get(
    '/user/config',
    {
      config: { access: 'session' },
      schema: { tags, summary: 'Own console settings (theme, language)', response: { 200: envelopeOf(userConfigSchema) } },
    },
    async (request) => {
      const user = currentUser(request);
      return ok(request, (await profileOf(user.id, user.groupId)).Config);
    },
  );

  app.put(
    '/user/config',
    {
      config: { access: 'session', audit: { subject: userSubject, id: self } },
      schema: {
        tags,
        summary: 'Save own console settings',
        body: updateConfigRequest,
        response: { 200: envelopeOf(userConfigSchema) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const current = (await profileOf(user.id, user.groupId)).Config;
      const next = parseConfig(JSON.stringify({ ...current, ...request.body }));
      await users.update(user.id, user.groupId, { config: JSON.stringify(next) });
      return ok(request, next, { message: 'saved' });
    },
  );

  app.post(
    '/user/Picture',
    {
      config: { access: 'session', audit: { subject: userSubject, action: 'update', id: self } },
      schema: {
        tags,
        summary: 'Upload own avatar (PNG or JPEG, at most 2 MB; the console crops it 1:1); replaces the previous one',
        consumes: ['multipart/form-data'],
        response: { 200: envelopeOf(userDto) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      await avatars.upload(request, user.id, user.groupId);
      return ok(request, await profileOf(user.id, user.groupId), { message: 'saved' });
    },
  );

  app.delete(
    '/user/Picture',
    {
      config: { access: 'session', audit: { subject: userSubject, action: 'update', id: self } },
      schema: { tags, summary: 'Remove own avatar', response: { 200: envelopeOf(userDto) } },
    },
    async (request) => {
      const user = currentUser(request);
      await avatars.remove(user.id, user.groupId);
      return ok(request, await profileOf(user.id, user.groupId), { message: 'deleted' });
    },
  );

  app.get(
    '/user/Picture/:id',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: "A user's avatar, to users of the same group only (another group's is not found)",
        params: z.object({ id: idRef }),
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const file = await avatars.open(request.params.id, user.groupId);
      return reply
        .header('content-type', file.contentType)
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', 'inline')
        .header('cache-control', 'private, max-age=86400')
        .send(file.stream);
    },
  );
}
