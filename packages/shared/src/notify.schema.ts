/**
 * Alarm notifications (issue 14): a group's channels (a webhook, e-mail over SMTP, SMS through
 * the provider), rules saying which alarms (warn types, projects or stations) go to which
 * people over which channel at which escalation level, quiet hours holding what is not urgent,
 * and a record of every delivery attempt. Channel secrets are sealed at rest and only ever sent
 * back masked (SECRET_MASK, as the SIM accounts').
 */
import { z } from 'zod';
import { email, messageRef } from './rules.ts';
import { flag, idRef, name, text } from './schema-fields.ts';
import { SECRET_MASK } from './sim.schema.ts';
import { secretFields } from './secret-fields.ts';

export { SECRET_MASK };

export const CHANNEL_KINDS = ['webhook', 'email', 'sms'] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

/** A delivery's state: due (pending), held by quiet hours, being sent, sent, failed (with the reason), or cancelled before it was due (the alarm handled or deleted, the rule or channel gone or off). */
export const DELIVERY_STATUSES = ['pending', 'held', 'sending', 'sent', 'failed', 'cancelled'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** The highest escalation level. */
export const MAX_LEVEL = 5;
/** The longest wait before a level (a day). */
export const MAX_DELAY_MINUTES = 1440;

const httpUrl = z
  .string()
  .trim()
  .max(500)
  .refine((v) => /^https?:\/\/[^/\s]+/i.test(v), { message: 'rule.url' });

export const notifyChannelDto = z.object({
  Id: z.number(),
  Name: z.string(),
  Kind: z.enum(CHANNEL_KINDS),
  Enabled: z.boolean(),
  /** Webhook: where the JSON is posted. */
  Url: z.string(),
  /** E-mail: the SMTP server. */
  SmtpHost: z.string(),
  SmtpPort: z.number(),
  /** E-mail: TLS from the start (port 465); otherwise STARTTLS when the server offers it. */
  SmtpSecure: z.boolean(),
  /** E-mail: the SMTP user; SMS: the provider's AccessKeyId. */
  UserName: z.string(),
  /** The mask (and the last 4 characters of a long secret): webhook signing secret, SMTP password or SMS AccessKeySecret. */
  Secret: z.string(),
  /** E-mail: the From address; SMS: the provider's sign name. */
  Sender: z.string(),
  /** SMS: the provider's template code. */
  Template: z.string(),
});
export type NotifyChannelDto = z.infer<typeof notifyChannelDto>;

const secret = z.string().max(200);
const channelFields = {
  Name: name(64),
  Kind: z.enum(CHANNEL_KINDS, { message: 'rule.required' }),
  Enabled: flag.optional(),
  Url: text(500),
  SmtpHost: text(255),
  SmtpPort: z.coerce.number().int().min(1).max(65535).optional(),
  SmtpSecure: flag.optional(),
  UserName: text(128),
  ...secretFields({ Secret: secret.optional() }),
  Sender: text(254),
  Template: text(64),
};

type ChannelInput = {
  Kind: ChannelKind;
  Url?: string | undefined;
  SmtpHost?: string | undefined;
  UserName?: string | undefined;
  Secret?: string | undefined;
  Sender?: string | undefined;
  Template?: string | undefined;
};

/** What each kind needs; `creating` also needs the secrets a kind cannot work without (an update may keep the stored one). */
function kindNeeds(c: ChannelInput, ctx: z.RefinementCtx, creating: boolean): void {
  const need = (field: keyof ChannelInput) => {
    const value = c[field];
    if (typeof value !== 'string' || value.trim() === '')
      ctx.addIssue({ code: 'custom', message: 'rule.required', path: [field] });
  };
  const newSecret = c.Secret !== undefined && c.Secret !== '' && !c.Secret.startsWith(SECRET_MASK);
  if (c.Kind === 'webhook') {
    need('Url');
    if (c.Url && !httpUrl.safeParse(c.Url).success) ctx.addIssue({ code: 'custom', message: 'rule.url', path: ['Url'] });
    if (creating) need('Secret');
    if (newSecret && (c.Secret ?? '').length < 16)
      ctx.addIssue({ code: 'custom', message: messageRef('rule.length', { min: 16, max: 200 }), path: ['Secret'] });
  } else if (c.Kind === 'email') {
    need('SmtpHost');
    need('Sender');
    if (c.Sender && !email.safeParse(c.Sender).success) ctx.addIssue({ code: 'custom', message: 'rule.email', path: ['Sender'] });
  } else {
    need('UserName');
    need('Sender');
    need('Template');
    if (creating) need('Secret');
  }
}

export const addNotifyChannelRequest = z.object(channelFields).superRefine((c, ctx) => {
  kindNeeds(c, ctx, true);
});
/** Empty or masked secrets keep the stored one. */
export const updateNotifyChannelRequest = z.object({ Id: idRef, ...channelFields }).superRefine((c, ctx) => {
  kindNeeds(c, ctx, false);
});

const idList = z.array(idRef).max(500);

export const notifyRuleDto = z.object({
  Id: z.number(),
  Name: z.string(),
  Enabled: z.boolean(),
  /** 1 is the first notice; 2 and above escalate an alarm still unhandled after DelayMinutes. */
  Level: z.number(),
  /** Minutes after the alarm opened (0: at once). */
  DelayMinutes: z.number(),
  ChannelId: z.number(),
  ChannelName: z.string(),
  ChannelKind: z.string(),
  /** Warn types it covers (none: every type). */
  TypeIds: z.array(z.number()),
  /** Projects or stations it covers, with everything below them (none: the whole group). */
  ProjectIds: z.array(z.number()),
  /** The group's users it reaches (their e-mail address or mobile number); a webhook needs none. */
  UserIds: z.array(z.number()),
  /** Delivered during quiet hours too. */
  Urgent: z.boolean(),
});
export type NotifyRuleDto = z.infer<typeof notifyRuleDto>;

const ruleFields = {
  Name: name(64),
  Enabled: flag.optional(),
  Level: z.coerce.number().int().min(1).max(MAX_LEVEL),
  DelayMinutes: z.coerce.number().int().min(0).max(MAX_DELAY_MINUTES),
  ChannelId: idRef,
  TypeIds: idList.optional(),
  ProjectIds: idList.optional(),
  UserIds: idList.optional(),
  Urgent: flag.optional(),
};

const escalationWaits = (r: { Level: number; DelayMinutes: number }, ctx: z.RefinementCtx) => {
  if (r.Level > 1 && r.DelayMinutes < 1)
    ctx.addIssue({ code: 'custom', message: 'notify.escalationDelay', path: ['DelayMinutes'] });
};

export const addNotifyRuleRequest = z.object(ruleFields).superRefine(escalationWaits);
export const updateNotifyRuleRequest = z.object({ Id: idRef, ...ruleFields }).superRefine(escalationWaits);

/** HH:mm, local time (UTC_OFFSET). */
export const TIME_OF_DAY = /^([01]\d|2[0-3]):[0-5]\d$/;
const timeOfDay = z.string().regex(TIME_OF_DAY, { message: 'rule.timeOfDay' });

/** Quiet hours of a group: deliveries of rules not marked urgent wait until they end. */
export const quietHoursDto = z.object({ Enabled: z.boolean(), Start: z.string(), End: z.string() });
export type QuietHoursDto = z.infer<typeof quietHoursDto>;
export const quietHoursRequest = z
  .object({ Enabled: flag, Start: timeOfDay, End: timeOfDay })
  .refine((q) => q.Start !== q.End, { message: 'notify.quietSame', path: ['End'] });

export const notifyDeliveryDto = z.object({
  Id: z.number(),
  WarnId: z.number(),
  RuleId: z.number().nullable(),
  RuleName: z.string(),
  ChannelId: z.number().nullable(),
  ChannelName: z.string(),
  Kind: z.string(),
  Level: z.number(),
  /** The address (e-mail, mobile number or webhook host) and whose it is. */
  Recipient: z.string(),
  RecipientName: z.string(),
  DeviceSn: z.string(),
  Code: z.string(),
  Description: z.string(),
  /** 1 for the first try, then each retry. */
  Attempt: z.number(),
  Status: z.enum(DELIVERY_STATUSES),
  /** When it is (or was) due. */
  DueAt: z.number(),
  /** When the attempt ended (sent, failed or cancelled). */
  DoneAt: z.number().nullable(),
  /** Why it failed or was cancelled. */
  Error: z.string(),
  CreatedAt: z.number(),
});
export type NotifyDeliveryDto = z.infer<typeof notifyDeliveryDto>;

export const DELIVERY_ORDER = ['CreatedAt', 'DueAt', 'Status', 'Kind', 'Level'] as const;

export const notifyDeliveryQuery = z.object({
  Status: z.preprocess((v) => (v === '' ? undefined : v), z.enum(DELIVERY_STATUSES).optional()),
  WarnId: z.preprocess((v) => (v === '' ? undefined : v), idRef.optional()),
  RuleId: z.preprocess((v) => (v === '' ? undefined : v), idRef.optional()),
});
