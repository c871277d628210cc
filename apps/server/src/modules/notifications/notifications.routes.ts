/**
 * Notifications, for those who configure alarms (system.manage): channels (NotifyChannel; the
 * secret sealed at rest and sent back masked), rules (NotifyRule), the group's quiet hours
 * (NotifySettings/QuietHours), the delivery history (NotifyDelivery, one row per attempt) and
 * sending a failed delivery again (NotifyDelivery/Retry).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  DELIVERY_ORDER,
  addNotifyChannelRequest,
  addNotifyRuleRequest,
  notifyChannelDto,
  notifyDeliveryDto,
  notifyDeliveryQuery,
  notifyRuleDto,
  quietHoursDto,
  quietHoursRequest,
  updateNotifyChannelRequest,
  updateNotifyRuleRequest,
} from '@sluice/shared/notify.schema';
import { idRef } from '@sluice/shared/schema-fields';
import { currentUser } from '../../auth/access.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { registerResource } from '../../http/resource.ts';
import { maskedSecret, sealUnlessKept } from '../../security/secret-fields.ts';
import { splitIds } from './notifications.repository.ts';
import { fromBody, type AuditSubject } from '../audit/audit-trail.ts';

const tags = ['Notifications'];
const manage = { operate: 'system.manage' } as const;

const ids = (value: unknown): number[] => (Array.isArray(value) ? value.filter((v): v is number => typeof v === 'number') : []);

export function notificationsRoutes(root: FastifyInstance): void {
  const { secrets, notifications } = root.ctx;

  registerResource(root, {
    table: 'notify_channels',
    audit: { kind: 'notifyChannel' },
    tags,
    access: { read: manage, write: manage },
    dto: notifyChannelDto,
    create: addNotifyChannelRequest,
    update: updateNotifyChannelRequest,
    sortable: ['Name', 'Kind'],
    searchable: ['Name', 'Url', 'SmtpHost', 'Sender'],
    unique: [{ key: 'Name', message: 'error.conflict' }],
    enrich: (rows) => Promise.resolve(rows.map((r) => ({ ...r, secret: maskedSecret(secrets, r.secret) }))),
    routes: {
      list: 'GET /NotifyChannel',
      all: 'GET /NotifyChannel/All',
      get: 'GET /NotifyChannel/:id',
      create: 'POST /NotifyChannel',
      update: 'PUT /NotifyChannel',
      remove: 'DELETE /NotifyChannel/:id',
    },
    beforeWrite: (row) => {
      const { secret, ...rest } = row;
      const sealed = sealUnlessKept(secrets, secret);
      return sealed === undefined ? rest : { ...rest, secret: sealed };
    },
    beforeRemove: (_db, channel, user) => notifications.checkChannelRemovable(user.groupId, channel.Id, channel.Name),
  });

  registerResource(root, {
    table: 'notify_rules',
    audit: { kind: 'notifyRule' },
    tags,
    access: { read: manage, write: manage },
    dto: notifyRuleDto,
    create: addNotifyRuleRequest,
    update: updateNotifyRuleRequest,
    sortable: ['Name', 'Level', 'DelayMinutes'],
    searchable: ['Name'],
    defaultOrder: { key: 'Level', direction: 'asc' },
    filters: { ChannelId: { key: 'ChannelId', schema: idRef } },
    enrich: async (rows, user) => {
      const channels = await notifications.channels(
        user.groupId,
        rows.map((r) => Number(r.channel_id)),
      );
      return rows.map((r) => {
        const channel = channels.get(Number(r.channel_id));
        return {
          ...r,
          channel_name: channel?.name ?? '',
          channel_kind: channel?.kind ?? '',
          type_ids: splitIds(String(r.type_ids)),
          project_ids: splitIds(String(r.project_ids)),
          user_ids: splitIds(String(r.user_ids)),
        };
      });
    },
    routes: {
      list: 'GET /NotifyRule',
      get: 'GET /NotifyRule/:id',
      create: 'POST /NotifyRule',
      update: 'PUT /NotifyRule',
      remove: 'DELETE /NotifyRule/:id',
    },
    beforeWrite: async (row, user) => {
      const lists = { userIds: ids(row.user_ids), typeIds: ids(row.type_ids), projectIds: ids(row.project_ids) };
      await notifications.checkRule(user.groupId, {
        channelId: typeof row.channel_id === 'number' ? row.channel_id : undefined,
        ...lists,
      });
      return {
        ...row,
        user_ids: lists.userIds.join(','),
        type_ids: lists.typeIds.join(','),
        project_ids: lists.projectIds.join(','),
      };
    },
  });

  const deliveries = registerResource(root, {
    table: 'notify_deliveries',
    audit: { kind: 'notifyDelivery' },
    tags,
    access: { read: manage, write: manage },
    dto: notifyDeliveryDto,
    create: z.object({}),
    update: z.object({}),
    sortable: [...DELIVERY_ORDER],
    searchable: ['Recipient', 'RecipientName', 'DeviceSn', 'Code', 'Description', 'RuleName', 'ChannelName', 'Error'],
    defaultOrder: { key: 'CreatedAt', direction: 'desc' },
    filters: {
      Status: { key: 'Status', schema: notifyDeliveryQuery.shape.Status },
      WarnId: { key: 'WarnId', schema: idRef },
      RuleId: { key: 'RuleId', schema: idRef },
    },
    routes: { list: 'GET /NotifyDelivery', get: 'GET /NotifyDelivery/:id' },
  });

  const app = root.withTypeProvider<ZodTypeProvider>();
  /** The group's quiet hours, by the group's id. */
  const quietHoursSubject: AuditSubject = {
    kind: 'notifySettings',
    load: async (_ctx, _user, groupId) => {
      const quiet = await notifications.quietHours(Number(groupId));
      return { Enabled: quiet.enabled, Start: quiet.start, End: quiet.end };
    },
  };

  app.post(
    '/NotifyDelivery/Retry',
    {
      config: { access: manage, audit: { subject: deliveries, action: 'retry', id: fromBody('Id') } },
      schema: {
        tags,
        summary: 'Sends a failed delivery again (a new attempt, due now), unless another attempt of it is already queued',
        body: z.object({ Id: idRef }),
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (request) => {
      await notifications.retry(currentUser(request).groupId, request.body.Id);
      return ok(request, null, { message: 'notify.retryQueued' });
    },
  );

  app.get(
    '/NotifySettings/QuietHours',
    {
      config: { access: manage },
      schema: { tags, summary: "The group's quiet hours", response: { 200: envelopeOf(quietHoursDto) } },
    },
    async (request) => {
      const quiet = await notifications.quietHours(currentUser(request).groupId);
      return ok(request, { Enabled: quiet.enabled, Start: quiet.start, End: quiet.end });
    },
  );

  app.put(
    '/NotifySettings/QuietHours',
    {
      config: {
        access: manage,
        audit: { subject: quietHoursSubject, id: (request) => request.user?.groupId, answerIsRecord: true },
      },
      schema: {
        tags,
        summary:
          'Sets the quiet hours (local time; may wrap midnight): deliveries of rules not marked urgent wait until they end',
        body: quietHoursRequest,
        response: { 200: envelopeOf(quietHoursDto) },
      },
    },
    async (request) => {
      const { Enabled, Start, End } = request.body;
      await notifications.setQuietHours(currentUser(request).groupId, { enabled: Enabled, start: Start, end: End });
      return ok(request, { Enabled, Start, End }, { message: 'saved' });
    },
  );
}
