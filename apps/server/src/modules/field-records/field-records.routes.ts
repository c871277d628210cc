/**
 * Field records (spec §7 Device input, Repair, Poll; issue 16): water-quality results per device
 * with compliance against the station's standard, discharge standards, repairs and their
 * workflow, inspection checklists and rounds, and photos of any record.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  addDeviceInputRequest,
  addDischargeStandardRequest,
  addPollRequest,
  addRepairRequest,
  deviceInputDto,
  deviceInputQuery,
  dischargeStandardDto,
  monthQuery,
  PHOTO_STAGES,
  pollDto,
  pollDueDto,
  pollPlanDto,
  pollQuery,
  RECORD_KINDS,
  RECORD_PHOTO_LIMIT,
  recordPhotoDto,
  repairActionRequest,
  repairDto,
  repairFromWarnRequest,
  repairQuery,
  setPollPlanRequest,
  setStationStandardRequest,
  stationStandardDto,
  updateDeviceInputRequest,
  updateDischargeStandardRequest,
  updateRepairRequest,
  type AddDeviceInputRequest,
  type RecordKind,
} from '@sluice/shared/field-records.schema';
import { deviceSn } from '@sluice/shared/device.schema';
import { pageQuery } from '@sluice/shared/paging.schema';
import { idRef } from '@sluice/shared/schema-fields';
import { currentUser } from '../../auth/access.ts';
import type { CurrentUser } from '../../auth/current-user.ts';
import { AppError } from '../../http/errors.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { pickOrder, registerResource, searchPattern } from '../../http/resource.ts';
import { receiveUpload, recordUpload } from '../../storage/upload.ts';
import { parseTimeParam } from '../telemetry/history.service.ts';
import { requestLanguage } from '../../http/language.ts';
import { XLSX_CONTENT_TYPE } from '../data-defines/xlsx.ts';
import { stationReportWorkbook } from './station-report.xlsx.ts';
import { fromBody, fromParams } from '../audit/audit-trail.ts';
import { fieldRecordSubjects, recordPhotoSubject } from './field-record.audit.ts';

const tags = ['Field records'];
const view = { operate: 'records.view' } as const;
const enter = { operate: 'records.enter' } as const;
const manage = { operate: 'records.manage' } as const;
const groupParams = z.object({ g: z.string() });
const inputParams = z.object({ g: z.string(), sn: deviceSn });

const REPAIR_ORDER: Record<string, string> = {
  CreatedAt: 'r.created_at',
  DueAt: 'r.due_at',
  State: 'r.state',
  RepairTitle: 'r.repair_title',
  AssigneeName: 'r.assignee_name',
};

/** The one DTO a single-row call made; 404 when the row is gone. */
function only<T>(list: T[]): T {
  const [item] = list;
  if (item === undefined) throw new AppError(404, 'error.notFound');
  return item;
}

export function fieldRecordsRoutes(root: FastifyInstance): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { scope, users, storage } = app.ctx;
  const records = app.ctx.fieldRecords;
  const repo = records.repository;
  const subjects = fieldRecordSubjects(records);
  const userName = async (user: CurrentUser) => (await users.profile(user.id, user.groupId))?.UserName ?? user.account;
  const mayManage = async (user: CurrentUser) => user.isAdmin || users.holdsOperate(user.id, 'records.manage');

  /** A time parameter in the site's time; refused naming the field when unreadable. */
  const time = (value: number | string, field: string, end = false): number => {
    const at = parseTimeParam(value, app.live.offsetMinutes, end);
    if (at === undefined) throw new AppError(400, 'rule.valueDate', {}, field);
    return at;
  };
  const notFuture = (at: number, field: string) => {
    // A minute's grace for a phone's clock.
    if (at > Date.now() + 60_000) throw new AppError(400, 'records.futureTime', {}, field);
    return at;
  };
  const range = (q: { Begin?: number | string | undefined; End?: number | string | undefined }) => ({
    from: q.Begin === undefined ? undefined : time(q.Begin, 'Begin'),
    to: q.End === undefined ? undefined : time(q.End, 'End', true),
  });

  /** A month's [from, to) in the site's time, and its last day (YYYY-MM-DD). */
  const monthRange = (month: string) => {
    const [year = 0, mon = 1] = month.split('-').map(Number);
    const next = mon === 12 ? `${String(year + 1)}-01` : `${String(year)}-${String(mon + 1).padStart(2, '0')}`;
    return {
      from: time(`${month}-01`, 'Month'),
      to: time(`${next}-01`, 'Month'),
      lastDay: `${month}-${String(new Date(Date.UTC(year, mon, 0)).getUTCDate()).padStart(2, '0')}`,
    };
  };

  // Discharge standards ------------------------------------------------------------------

  registerResource(root, {
    table: 'discharge_standards',
    audit: { kind: 'dischargeStandard' },
    tags,
    access: { read: view, write: manage },
    dto: dischargeStandardDto,
    create: addDischargeStandardRequest,
    update: updateDischargeStandardRequest,
    sortable: ['Name'],
    searchable: ['Name', 'Description'],
    unique: [{ key: 'Name', message: 'error.conflict' }],
    routes: {
      all: 'GET /:g/DischargeStandard',
      create: 'POST /:g/DischargeStandard',
      update: 'PUT /:g/DischargeStandard',
      remove: 'DELETE /:g/DischargeStandard/:id',
    },
    beforeRemove: (_db, row, user) => records.refuseRemovingUsedStandard(user.groupId, row),
  });

  const stationParams = z.object({ g: z.string(), projectId: idRef });
  app.get(
    '/:g/StationStandard/:projectId',
    {
      config: { access: view },
      schema: {
        tags,
        summary: "The discharge standard a station holds (its project's when it has none of its own), with its limits",
        params: stationParams,
        response: { 200: envelopeOf(stationStandardDto) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const project = await scope.project(user, request.params.projectId);
      return ok(request, await records.stationStandard(user.groupId, project.id));
    },
  );

  app.put(
    '/:g/StationStandard/:projectId',
    {
      config: {
        access: manage,
        audit: { subject: subjects.stationStandard, action: 'update', id: fromParams('projectId'), answerIsRecord: true },
      },
      schema: {
        tags,
        summary: "Set a station's standard: GB18918-1A, -1B, -2, -3, custom:<id>, or '' for none",
        params: stationParams,
        body: setStationStandardRequest,
        response: { 200: envelopeOf(stationStandardDto) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const project = await scope.project(user, request.params.projectId, 'write');
      await records.checkStandard(user.groupId, request.body.Standard);
      await repo.setStandard(user.groupId, project.id, request.body.Standard);
      return ok(request, await records.stationStandard(user.groupId, project.id), { message: 'saved' });
    },
  );

  // Water-quality results (Device input) -------------------------------------------------

  const inputRow = (body: Partial<AddDeviceInputRequest> & { Id?: number }) => {
    const row: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
      if (value === undefined || key === 'Dt' || key === 'Id') continue;
      row[
        key
          .toLowerCase()
          .replace(/^waterinflow$/, 'water_inflow')
          .replace(/^watertemp$/, 'water_temp')
      ] = value;
    }
    if (body.Dt !== undefined) row.dt = notFuture(time(body.Dt, 'Dt'), 'Dt');
    return row;
  };
  const inputDto = async (user: CurrentUser, id: number) => {
    const row = await repo.input(user, id);
    if (!row) throw new AppError(404, 'error.notFound');
    return only(await records.inputDtos(user.groupId, [row]));
  };

  app.get(
    '/:g/:sn/DeviceInput',
    {
      config: { access: view },
      schema: {
        tags,
        summary: "A device's water-quality results in a time range (projectId, begin, end), newest first; none is an empty list",
        params: inputParams,
        querystring: deviceInputQuery,
        response: { 200: envelopeOf(z.array(deviceInputDto)) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const device = await scope.device(user, request.params.sn);
      const q = request.query;
      const { rows } = await repo.inputPage(user, { deviceSn: device.device_sn, projectId: q.ProjectId, ...range(q) });
      const dtos = await records.inputDtos(user.groupId, rows.slice(0, 2000));
      return ok(request, q.Compliant === 0 ? dtos.filter((d) => d.Compliant === false) : dtos);
    },
  );

  app.get(
    '/:g/DeviceInput',
    {
      config: { access: view },
      schema: {
        tags,
        summary: 'Water-quality results of the devices the user reaches, paged: by station or project, device and time',
        params: groupParams,
        querystring: z.intersection(pageQuery, deviceInputQuery),
        response: { 200: envelopeOf(z.array(deviceInputDto)) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const q = request.query;
      const filter = { projectId: q.ProjectId, deviceSn: q.DeviceSn, ...range(q) };
      if (q.Compliant === 0) {
        // Compliance is judged per record against its station's standard: filtered after judging.
        const { rows } = await repo.inputPage(user, filter, { offset: 0, limit: 5000 });
        const failing = (await records.inputDtos(user.groupId, rows)).filter((d) => d.Compliant === false);
        const start = (q.PageNo - 1) * q.PageSize;
        return ok(request, failing.slice(start, start + q.PageSize), { count: failing.length });
      }
      const { rows, count } = await repo.inputPage(user, filter, { offset: (q.PageNo - 1) * q.PageSize, limit: q.PageSize });
      return ok(request, await records.inputDtos(user.groupId, rows), { count });
    },
  );

  app.post(
    '/:g/:sn/DeviceInput',
    {
      config: { access: enter, audit: { subject: subjects.input, answerIsRecord: true } },
      schema: {
        tags,
        summary: 'Record a water-quality result of the device (influent _In and effluent _Out per parameter)',
        params: inputParams,
        body: addDeviceInputRequest,
        response: { 201: envelopeOf(deviceInputDto) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const device = await scope.device(user, request.params.sn, 'write');
      const row = inputRow(request.body);
      const id = await repo.addInput({
        ...row,
        dt: row.dt as number,
        group_id: user.groupId,
        device_sn: device.device_sn,
        project_id: device.project_id,
        created_by: user.id,
        created_by_name: await userName(user),
        created_at: Date.now(),
      });
      return reply.status(201).send(ok(request, await inputDto(user, id), { message: 'created' }));
    },
  );

  app.put(
    '/:g/:sn/DeviceInput',
    {
      config: { access: enter, audit: { subject: subjects.input, id: fromBody('Id'), answerIsRecord: true } },
      schema: {
        tags,
        summary: 'Correct a water-quality result',
        params: inputParams,
        body: updateDeviceInputRequest,
        response: { 200: envelopeOf(deviceInputDto) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const device = await scope.device(user, request.params.sn, 'write');
      const existing = await repo.input(user, request.body.Id, 'write');
      if (!existing || existing.device_sn !== device.device_sn) throw new AppError(404, 'error.notFound');
      await repo.updateInput(user.groupId, existing.id, inputRow(request.body));
      return ok(request, await inputDto(user, existing.id), { message: 'saved' });
    },
  );

  app.delete(
    '/:g/:sn/DeviceInput/:id',
    {
      config: { access: manage, audit: { subject: subjects.input, id: fromParams('id') } },
      schema: { tags, summary: 'Delete a water-quality result and its photos', params: inputParams.extend({ id: idRef }) },
    },
    async (request) => {
      const user = currentUser(request);
      const device = await scope.device(user, request.params.sn, 'write');
      const existing = await repo.input(user, request.params.id, 'write');
      if (!existing || existing.device_sn !== device.device_sn) throw new AppError(404, 'error.notFound');
      await records.removeInput(user, existing.id);
      return ok(request, null, { message: 'deleted' });
    },
  );

  // Repairs ------------------------------------------------------------------------------

  const repairOut = async (user: CurrentUser, id: number) => {
    const row = await repo.repair(user, id);
    if (!row) throw new AppError(404, 'error.notFound');
    return only(await records.repairDtos(user.groupId, [row]));
  };
  const repairFilter = (q: z.infer<typeof repairQuery> & { Search?: string | undefined }) => ({
    projectId: q.ProjectId,
    deviceSn: q.DeviceSn,
    state: q.State,
    dueBefore: q.Overdue === 1 ? Date.now() : undefined,
    search: searchPattern(q.Search),
    ...range(q),
  });

  app.post(
    '/RepairAdd',
    {
      config: { access: enter, audit: { subject: subjects.repair, answerIsRecord: true } },
      schema: {
        tags,
        summary:
          'Report a repair at a station or on a device (its station then); with an assignee (records.manage) it starts assigned',
        body: addRepairRequest,
        response: { 201: envelopeOf(repairDto) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const body = request.body;
      let projectId = body.ProjectId ?? null;
      let sn = '';
      if (body.DeviceSn) {
        const device = await scope.device(user, body.DeviceSn, 'write');
        if (device.project_id === null) throw new AppError(400, 'records.siteRequired', {}, 'DeviceSn');
        if (projectId !== null && projectId !== device.project_id) throw new AppError(404, 'error.notFound');
        projectId = device.project_id;
        sn = device.device_sn;
      }
      if (projectId === null) throw new AppError(400, 'records.siteRequired', {}, 'ProjectId');
      const project = await scope.project(user, projectId, 'write');
      const now = Date.now();
      let assignee: { id: number; name: string } | undefined;
      if (body.AssigneeId !== undefined) {
        if (!(await mayManage(user))) throw new AppError(403, 'auth.forbidden');
        assignee = await records.assignee(user.groupId, project.id, body.AssigneeId);
      }
      const id = await repo.addRepair({
        group_id: user.groupId,
        project_id: project.id,
        device_sn: sn,
        repair_title: body.RepairTitle,
        repair_content: body.RepairContent ?? '',
        fault_code: body.FaultCode ?? '',
        state: assignee ? 'assigned' : 'reported',
        assignee_id: assignee?.id ?? null,
        assignee_name: assignee?.name ?? '',
        assigned_at: assignee ? now : null,
        due_at: body.DueAt === undefined || body.DueAt === null ? null : time(body.DueAt, 'DueAt'),
        parts: body.Parts ?? '',
        cost: body.Cost ?? null,
        warn_id: null,
        reported_by: user.id,
        reported_by_name: await userName(user),
        created_at: now,
        updated_at: now,
      });
      return reply.status(201).send(ok(request, await repairOut(user, id), { message: 'created' }));
    },
  );

  app.post(
    '/Repair/FromWarn',
    {
      config: { access: enter, audit: { subject: subjects.repair, answerIsRecord: true } },
      schema: {
        tags,
        summary: "Turn an alarm into a repair of its device (the alarm's code and description; the link kept)",
        body: repairFromWarnRequest,
        response: { 201: envelopeOf(repairDto) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const [alarm] = await app.live.alarms.reached(user, [request.body.WarnId], 'write');
      if (!alarm) throw new AppError(404, 'error.notFound');
      const existing = await repo.repairOfWarn(user.groupId, alarm.id);
      if (existing !== undefined) throw new AppError(409, 'records.alreadyRepairing', { id: existing }, 'WarnId');
      if (alarm.project_id === null) throw new AppError(400, 'records.siteRequired', {}, 'WarnId');
      const now = Date.now();
      const title = `${alarm.code} ${alarm.description}`.trim().slice(0, 100);
      const id = await repo.addRepair({
        group_id: user.groupId,
        project_id: alarm.project_id,
        device_sn: alarm.device_sn,
        repair_title: title,
        repair_content: alarm.comments,
        fault_code: alarm.code,
        state: 'reported',
        due_at: request.body.DueAt === undefined || request.body.DueAt === null ? null : time(request.body.DueAt, 'DueAt'),
        warn_id: alarm.id,
        reported_by: user.id,
        reported_by_name: await userName(user),
        created_at: now,
        updated_at: now,
      });
      return reply.status(201).send(ok(request, await repairOut(user, id), { message: 'created' }));
    },
  );

  const repairListQuery = z.intersection(pageQuery, repairQuery);
  app.get(
    '/GetRepairList',
    {
      config: { access: view },
      schema: {
        tags,
        summary: 'Repairs of the stations the user reaches (by station, device, state, overdue, time), newest first',
        querystring: repairListQuery,
        response: { 200: envelopeOf(z.array(repairDto)) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const order = pickOrder(request.query, REPAIR_ORDER, { key: 'CreatedAt', direction: 'desc' });
      const { rows, count } = await repo.repairPage(user, repairFilter(request.query), order, { offset: 0, limit: 2000 });
      return ok(request, await records.repairDtos(user.groupId, rows), { count });
    },
  );

  app.get(
    '/GetRepairPageList',
    {
      config: { access: view },
      schema: {
        tags,
        summary: 'Repairs, paged, searchable by title, content, fault code and assignee',
        querystring: repairListQuery,
        response: { 200: envelopeOf(z.array(repairDto)) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const q = request.query;
      const order = pickOrder(q, REPAIR_ORDER, { key: 'CreatedAt', direction: 'desc' });
      const { rows, count } = await repo.repairPage(user, repairFilter(q), order, {
        offset: (q.PageNo - 1) * q.PageSize,
        limit: q.PageSize,
      });
      return ok(request, await records.repairDtos(user.groupId, rows), { count });
    },
  );

  app.put(
    '/Repair',
    {
      config: { access: enter, audit: { subject: subjects.repair, id: fromBody('Id'), answerIsRecord: true } },
      schema: {
        tags,
        summary: "Edit a repair's details (title, content, fault, due date, parts, cost, resolution)",
        body: updateRepairRequest,
        response: { 200: envelopeOf(repairDto) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const existing = await repo.repair(user, request.body.Id, 'write');
      if (!existing) throw new AppError(404, 'error.notFound');
      const b = request.body;
      const change = {
        ...(b.RepairTitle !== undefined ? { repair_title: b.RepairTitle } : {}),
        ...(b.RepairContent !== undefined ? { repair_content: b.RepairContent } : {}),
        ...(b.FaultCode !== undefined ? { fault_code: b.FaultCode } : {}),
        ...(b.DueAt !== undefined ? { due_at: b.DueAt === null ? null : time(b.DueAt, 'DueAt') } : {}),
        ...(b.Parts !== undefined ? { parts: b.Parts } : {}),
        ...(b.Cost !== undefined ? { cost: b.Cost } : {}),
        ...(b.Resolution !== undefined ? { resolution: b.Resolution } : {}),
        updated_at: Date.now(),
      };
      await repo.updateRepair(user.groupId, existing.id, change);
      return ok(request, await repairOut(user, existing.id), { message: 'saved' });
    },
  );

  app.post(
    '/Repair/:id/Action',
    {
      config: {
        access: enter,
        audit: { subject: subjects.repair, action: 'update', id: fromParams('id'), answerIsRecord: true },
      },
      schema: {
        tags,
        summary:
          'Move a repair on: assign (AssigneeId, a principal of the station), start, finish (Note: what was done), verify, or reject back to its assignee (Note: why); assign, verify and reject need records.manage',
        params: z.object({ id: idRef }),
        body: repairActionRequest,
        response: { 200: envelopeOf(repairDto) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const existing = await repo.repair(user, request.params.id, 'write');
      if (!existing) throw new AppError(404, 'error.notFound');
      await records.transition(user, existing, request.body, await mayManage(user));
      return ok(request, await repairOut(user, existing.id), { message: 'saved' });
    },
  );

  app.delete(
    '/Repair/:id',
    {
      config: { access: manage, audit: { subject: subjects.repair, id: fromParams('id') } },
      schema: { tags, summary: 'Delete a repair and its photos', params: z.object({ id: idRef }) },
    },
    async (request) => {
      const user = currentUser(request);
      const existing = await repo.repair(user, request.params.id, 'write');
      if (!existing) throw new AppError(404, 'error.notFound');
      await records.removeRepair(user, existing.id);
      return ok(request, null, { message: 'deleted' });
    },
  );

  // Inspections (Poll) --------------------------------------------------------------------

  app.get(
    '/:g/PollPlan/:projectId',
    {
      config: { access: view },
      schema: {
        tags,
        summary: "A station's inspection checklist and the days between rounds",
        params: stationParams,
        response: { 200: envelopeOf(pollPlanDto) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const project = await scope.project(user, request.params.projectId);
      const plan = await repo.pollPlan(user.groupId, project.id);
      return ok(request, {
        ProjectId: project.id,
        Items: plan ? (JSON.parse(plan.items) as string[]) : [],
        IntervalDays: plan?.interval_days ?? 0,
      });
    },
  );

  app.put(
    '/:g/PollPlan/:projectId',
    {
      config: { access: manage, audit: { subject: subjects.pollPlan, id: fromParams('projectId'), answerIsRecord: true } },
      schema: {
        tags,
        summary: "Set a station's inspection checklist and schedule (IntervalDays 0: no schedule)",
        params: stationParams,
        body: setPollPlanRequest,
        response: { 200: envelopeOf(pollPlanDto) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const project = await scope.project(user, request.params.projectId, 'write');
      await repo.setPollPlan(user.groupId, project.id, request.body.Items, request.body.IntervalDays);
      return ok(
        request,
        { ProjectId: project.id, Items: request.body.Items, IntervalDays: request.body.IntervalDays },
        { message: 'saved' },
      );
    },
  );

  app.post(
    '/PollAdd',
    {
      config: { access: enter, audit: { subject: subjects.poll, answerIsRecord: true } },
      schema: {
        tags,
        summary: "Record an inspection round at a station: each checklist item's result, the time on site",
        body: addPollRequest,
        response: { 201: envelopeOf(pollDto) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const b = request.body;
      const project = await scope.project(user, b.ProjectId, 'write');
      const arrived = notFuture(time(b.ArrivedAt, 'ArrivedAt'), 'ArrivedAt');
      const left = b.LeftAt === undefined || b.LeftAt === null ? null : notFuture(time(b.LeftAt, 'LeftAt'), 'LeftAt');
      if (left !== null && left < arrived) throw new AppError(400, 'history.badRange', {}, 'LeftAt');
      const id = await repo.addPoll({
        group_id: user.groupId,
        project_id: project.id,
        poll_title: b.PollTitle,
        poll_content: b.PollContent ?? '',
        results: JSON.stringify(b.Results.map((r) => ({ Item: r.Item, Ok: r.Ok, Value: r.Value ?? '' }))),
        issues: b.Results.filter((r) => !r.Ok).length,
        chemicals: JSON.stringify(b.Chemicals.map((c) => ({ Chemical: c.Chemical, Quantity: c.Quantity, Unit: c.Unit }))),
        arrived_at: arrived,
        left_at: left,
        created_by: user.id,
        inspector: await userName(user),
        created_at: Date.now(),
      });
      const row = await repo.poll(user, id);
      if (!row) throw new AppError(404, 'error.notFound');
      const dto = only(await records.pollDtos(user.groupId, [row]));
      return reply.status(201).send(ok(request, dto, { message: 'created' }));
    },
  );

  const pollListQuery = z.intersection(pageQuery, pollQuery);
  app.get(
    '/GetPollList',
    {
      config: { access: view },
      schema: {
        tags,
        summary: 'Inspection rounds of the stations the user reaches (by station and time), newest first',
        querystring: pollListQuery,
        response: { 200: envelopeOf(z.array(pollDto)) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const q = request.query;
      const { rows, count } = await repo.pollPage(user, { projectId: q.ProjectId, ...range(q) }, { offset: 0, limit: 2000 });
      return ok(request, await records.pollDtos(user.groupId, rows), { count });
    },
  );

  app.get(
    '/GetPollPageList',
    {
      config: { access: view },
      schema: {
        tags,
        summary: 'Inspection rounds, paged',
        querystring: pollListQuery,
        response: { 200: envelopeOf(z.array(pollDto)) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const q = request.query;
      const { rows, count } = await repo.pollPage(
        user,
        { projectId: q.ProjectId, ...range(q) },
        { offset: (q.PageNo - 1) * q.PageSize, limit: q.PageSize },
      );
      return ok(request, await records.pollDtos(user.groupId, rows), { count });
    },
  );

  app.get(
    '/PollDue',
    {
      config: { access: view },
      schema: {
        tags,
        summary: 'Stations with a round schedule: the last round, when the next is due, and whether it is overdue',
        querystring: z.object({ ProjectId: z.preprocess((v) => (v === '' ? undefined : v), idRef.optional()) }),
        response: { 200: envelopeOf(z.array(pollDueDto)) },
      },
    },
    async (request) => ok(request, await records.pollsDue(currentUser(request), request.query.ProjectId)),
  );

  app.delete(
    '/Poll/:id',
    {
      config: { access: manage, audit: { subject: subjects.poll, id: fromParams('id') } },
      schema: { tags, summary: 'Delete an inspection round and its photos', params: z.object({ id: idRef }) },
    },
    async (request) => {
      const user = currentUser(request);
      const existing = await repo.poll(user, request.params.id, 'write');
      if (!existing) throw new AppError(404, 'error.notFound');
      await records.removePoll(user, existing.id);
      return ok(request, null, { message: 'deleted' });
    },
  );

  // The monthly station report ----------------------------------------------------------------

  app.get(
    '/:g/StationReport',
    {
      config: { access: view },
      schema: {
        tags,
        summary:
          "A project's or station's month (Month YYYY-MM): treated volume, energy, kWh/m³, laboratory compliance against the standard, online effluent averages and compliant days, alarms by type and time to handle, repairs and rounds",
        params: groupParams,
        querystring: z.object({
          ProjectId: idRef,
          Month: monthQuery,
          /** xlsx: the report as an Excel workbook in the caller's language instead of the envelope. */
          Format: z.enum(['xlsx']).optional(),
        }),
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const project = await scope.project(user, request.query.ProjectId);
      const month = request.query.Month;
      const report = await app.ctx.stationReports.report(user, project, month, monthRange(month));
      if (request.query.Format === 'xlsx') {
        const offset = app.live.offsetMinutes;
        const workbook = await stationReportWorkbook(report, requestLanguage(request), (ms) =>
          new Date(ms + offset * 60_000).toISOString().slice(0, 16).replace('T', ' '),
        );
        // A file, not the envelope: sent through the untyped reply.
        const file: FastifyReply = reply;
        return file
          .header('content-type', XLSX_CONTENT_TYPE)
          .header('content-disposition', `attachment; filename="station-report-${String(project.id)}-${month}.xlsx"`)
          .send(workbook);
      }
      return ok(request, report);
    },
  );

  app.get(
    '/:g/MonthCompliance',
    {
      config: { access: view },
      schema: {
        tags,
        summary:
          "Each reachable station's month (Month YYYY-MM; ProjectId narrows it to a project or station): laboratory samples judged and compliant against its standard, and per parameter the laboratory values and the online analysers' days within the standard",
        params: groupParams,
        querystring: z.object({
          ProjectId: z.preprocess((v) => (v === '' ? undefined : v), idRef.optional()),
          Month: monthQuery,
        }),
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { ProjectId, Month } = request.query;
      if (ProjectId !== undefined) await scope.project(user, ProjectId);
      return ok(request, await app.ctx.stationReports.compliance(user, ProjectId, Month, monthRange(Month)));
    },
  );

  // Photos of a record ---------------------------------------------------------------------

  /** The record, reached for writing: a water-quality result, repair or round. */
  const reachRecord = async (user: CurrentUser, kind: RecordKind, id: number) => {
    const found =
      kind === 'input'
        ? await repo.input(user, id, 'write')
        : kind === 'repair'
          ? await repo.repair(user, id, 'write')
          : await repo.poll(user, id, 'write');
    if (!found) throw new AppError(404, 'error.notFound');
  };
  const photoParams = z.object({ g: z.string(), kind: z.enum(RECORD_KINDS), id: idRef });

  app.post(
    '/:g/RecordPhoto/:kind/:id',
    {
      config: { access: enter, audit: { subject: recordPhotoSubject, action: 'create' } },
      schema: {
        tags,
        summary:
          'Add a photo to a water-quality result, repair or round (multipart "file"; png, jpeg or bmp, at most 5 MB); Stage before or after for repairs',
        consumes: ['multipart/form-data'],
        params: photoParams,
        querystring: z.object({ Stage: z.enum(PHOTO_STAGES).default('') }),
        response: { 200: envelopeOf(recordPhotoDto) },
      },
    },
    async (request: FastifyRequest<{ Params: z.infer<typeof photoParams>; Querystring: { Stage: string } }>) => {
      const user = currentUser(request);
      const { kind, id } = request.params;
      await reachRecord(user, kind, id);
      const stored = await receiveUpload(request, storage, {
        folder: 'record-photos',
        limit: RECORD_PHOTO_LIMIT,
        kinds: ['png', 'jpeg', 'bmp'],
      });
      const photo = await recordUpload(storage, stored, () =>
        repo.addPhoto(user.groupId, kind, id, request.query.Stage, stored.key),
      );
      return ok(request, photo, { message: 'saved' });
    },
  );

  app.delete(
    '/:g/RecordPhoto/:id',
    {
      config: { access: enter, audit: { subject: recordPhotoSubject, id: fromParams('id') } },
      schema: { tags, summary: "Delete a record's photo", params: z.object({ g: z.string(), id: idRef }) },
    },
    async (request) => {
      const user = currentUser(request);
      const photo = await repo.photo(user.groupId, request.params.id);
      if (!photo) throw new AppError(404, 'error.notFound');
      await reachRecord(user, photo.record_kind as RecordKind, photo.record_id);
      await repo.removePhoto(user.groupId, photo.id);
      await storage.remove(photo.storage_key);
      return ok(request, null, { message: 'deleted' });
    },
  );
}
