/**
 * Alarm records (spec §7 Alarms, logs, records): GET Warn (State, Active, ProjectId, TypeId,
 * DeviceSn, BeginTime, EndTime, paging, Search, OrderBy, OrderType), GET/PUT {deviceSn}/Warn,
 * PUT Warn (many with one comment), GET Warn/GetWarnInfo (the header's bell), POST
 * Warn/WarnDelete, POST Warn/WarnAdd and GET Warn/statistics — every one over the alarms of the
 * devices the user reaches.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pageQuery } from '@sluice/shared/paging.schema';
import { deviceSn } from '@sluice/shared/device.schema';
import {
  addWarnRequest,
  deleteWarnsRequest,
  handleWarnRequest,
  handleWarnsRequest,
  warnDto,
  warnInfoDto,
  warnQuery,
  warnStatisticsDto,
  warnStatisticsQuery,
  type WarnQuery,
} from '@sluice/shared/alarm.schema';
import type { PageQuery } from '@sluice/shared/paging.schema';
import { currentUser } from '../../auth/access.ts';
import type { CurrentUser } from '../../auth/current-user.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { AppError } from '../../http/errors.ts';
import { pickOrder, searchPattern } from '../../http/resource.ts';
import { ALARM_ORDER_COLUMNS, type AlarmFilter } from './alarms.repository.ts';
import { alarmRange, toWarnDto } from './alarms.service.ts';
import { fromBody } from '../audit/audit-trail.ts';
import { alarmSubject } from './alarm.audit.ts';

const tags = ['Alarms'];
const view = { operate: 'device.view' } as const;

export function alarmsRoutes(root: FastifyInstance): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { scope, users } = app.ctx;
  const alarms = () => app.live.alarms;
  const alarm = alarmSubject(alarms);
  const userName = async (user: CurrentUser) => (await users.profile(user.id, user.groupId))?.UserName ?? user.account;

  const filterOf = (q: WarnQuery & PageQuery): AlarmFilter => {
    const offset = app.live.offsetMinutes;
    const range = alarmRange(q.BeginTime, q.EndTime, offset);
    return {
      state: q.State,
      active: q.Active,
      projectId: q.ProjectId,
      typeId: q.TypeId,
      deviceSn: q.DeviceSn,
      from: range.from,
      to: range.to,
      search: searchPattern(q.Search),
    };
  };
  const list = async (request: FastifyRequest, user: CurrentUser, q: WarnQuery & PageQuery, filter: AlarmFilter) => {
    const { rows, count } = await alarms().records.page(
      user,
      filter,
      pickOrder(q, ALARM_ORDER_COLUMNS, { key: 'Dt', direction: 'desc' }),
      { no: q.PageNo, size: q.PageSize },
    );
    return ok(request, rows.map(toWarnDto), { count });
  };

  app.get(
    '/Warn',
    {
      config: { access: view },
      schema: {
        tags,
        summary: 'Alarms of the devices the user reaches (paged; newest first unless OrderBy/OrderType say otherwise)',
        querystring: z.intersection(pageQuery, warnQuery),
        response: { 200: envelopeOf(z.array(warnDto)) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return list(request, user, request.query, filterOf(request.query));
    },
  );

  app.get(
    '/:deviceSn/Warn',
    {
      config: { access: view },
      schema: {
        tags,
        summary: "A device's alarms (Active=1: those open now)",
        params: z.object({ deviceSn }),
        querystring: z.intersection(pageQuery, warnQuery),
        response: { 200: envelopeOf(z.array(warnDto)) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const device = await scope.device(user, request.params.deviceSn);
      return list(request, user, request.query, { ...filterOf(request.query), deviceSn: device.device_sn });
    },
  );

  app.put(
    '/:deviceSn/Warn',
    {
      config: {
        access: { operate: 'device.control' },
        audit: { subject: alarm, action: 'handle', id: fromBody('Id'), answerIsRecord: true },
      },
      schema: {
        tags,
        summary: 'Handle one alarm of the device with comments',
        params: z.object({ deviceSn }),
        body: handleWarnRequest,
        response: { 200: envelopeOf(warnDto) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const device = await scope.device(user, request.params.deviceSn);
      const [alarm] = await alarms().reached(user, [request.body.Id]);
      if (!alarm || alarm.device_sn !== device.device_sn) throw new AppError(404, 'error.notFound');
      if (alarm.state === 1) throw new AppError(409, 'warn.handled', { name: alarm.handled_by_name });
      await alarms().handle(user, await userName(user), [alarm.id], request.body.Comments);
      const [handled] = await alarms().reached(user, [alarm.id]);
      if (!handled) throw new AppError(404, 'error.notFound');
      return ok(request, toWarnDto(handled), { message: 'saved' });
    },
  );

  app.put(
    '/Warn',
    {
      config: { access: { operate: 'device.control' }, audit: { subject: alarm, action: 'handle', id: fromBody('Ids') } },
      schema: {
        tags,
        summary: 'Handle many alarms with one comment (those already handled keep their handling)',
        body: handleWarnsRequest,
        response: { 200: envelopeOf(z.object({ Handled: z.array(z.number()) })) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const handled = await alarms().handle(user, await userName(user), request.body.Ids, request.body.Comments);
      return ok(request, { Handled: handled }, { message: 'warn.handledMany', params: { count: handled.length } });
    },
  );

  app.get(
    '/Warn/GetWarnInfo',
    {
      config: { access: view },
      schema: {
        tags,
        summary: 'What the bell shows: active unhandled and unhandled counts, and the newest active unhandled alarms',
        response: { 200: envelopeOf(warnInfoDto) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const counts = await alarms().records.unhandledCounts(user);
      const latest = await alarms().records.page(
        user,
        { state: 0, active: 1 },
        { column: 'w.dt', direction: 'desc' },
        { no: 1, size: 5 },
      );
      return ok(request, {
        ActiveUnhandled: counts.activeUnhandled,
        Unhandled: counts.unhandled,
        Latest: latest.rows.map(toWarnDto),
      });
    },
  );

  app.post(
    '/Warn/WarnDelete',
    {
      config: { access: { operate: 'device.manage' }, audit: { subject: alarm, action: 'delete', id: fromBody('Ids') } },
      schema: { tags, summary: 'Delete alarms (all of them, or none when one is not reached)', body: deleteWarnsRequest },
    },
    async (request) => {
      const user = currentUser(request);
      await alarms().remove(user, request.body.Ids);
      return ok(request, null, { message: 'deleted' });
    },
  );

  app.post(
    '/Warn/WarnAdd',
    {
      config: { access: { operate: 'device.control' }, audit: { subject: alarm, answerIsRecord: true } },
      schema: {
        tags,
        summary: "Raise an alarm on a device by hand with one of the group's warn codes (handling it clears it)",
        body: addWarnRequest,
        response: { 201: envelopeOf(warnDto) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const device = await scope.device(user, request.body.DeviceSn, 'write').catch((error: unknown) => {
        if (error instanceof AppError && error.statusCode === 404)
          throw new AppError(400, 'ref.unknown', { what: 'DeviceSn', id: request.body.DeviceSn }, 'DeviceSn');
        throw error;
      });
      const row = await alarms().addManual(
        { groupId: user.groupId, deviceSn: device.device_sn, projectId: device.project_id },
        request.body.Code,
        request.body.Comments ?? '',
      );
      const [added] = await alarms().reached(user, [row.id]);
      if (!added) throw new AppError(404, 'error.notFound');
      return reply.status(201).send(ok(request, toWarnDto(added), { message: 'created' }));
    },
  );

  app.get(
    '/Warn/statistics',
    {
      config: { access: view },
      schema: {
        tags,
        summary: 'Counts of alarms opened in a range (default the last 30 days): by state, warn type, station and local day',
        querystring: warnStatisticsQuery,
        response: { 200: envelopeOf(warnStatisticsDto) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const offset = app.live.offsetMinutes;
      const q = request.query;
      const { from, to } = alarmRange(q.BeginTime, q.EndTime, offset, true);
      return ok(
        request,
        await alarms().statistics(user, { from: from ?? 0, to: to ?? Date.now(), projectId: q.ProjectId }, offset),
      );
    },
  );
}
