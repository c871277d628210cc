/**
 * What a route declares about the audit trail (`config.audit`), beside who may call it
 * (`config.access`). Every API call that is not a GET must declare one (audit.plugin.ts refuses
 * the route otherwise): the subject it changes and how the call names it, or an exemption with
 * the reason.
 *
 *   config: { access: manage, audit: { subject: userSubject, id: fromBody('Id') } }
 *   config: { access: 'public', audit: { exempt: 'the MQTT broker asks whether a device may connect' } }
 *
 * A subject is a kind of record with the way to read it as the API shows it (`load`): the entry
 * holds it before the call (read in the call's own transaction, just before its first write) and
 * after (just before the commit). Without `load`, before is null and after is the call's answer
 * (or, when the answer holds nothing, what the call was sent).
 */
import type { FastifyRequest } from 'fastify';
import type { AuditAction, AuditKind } from '@sluice/shared/audit.schema';
import type { AppContext } from '../../app-context.ts';
import type { CurrentUser } from '../../auth/current-user.ts';

export type AuditId = string | number;

/** Reads a record as the API shows it; null or undefined when there is none. */
export type AuditLoad = (ctx: AppContext, user: CurrentUser | null, id: AuditId) => Promise<unknown>;

export interface AuditRef {
  kind: AuditKind;
  id: AuditId;
}

export interface AuditSubject {
  kind: AuditKind;
  load?: AuditLoad;
  /** The record's name in lists (default: its Name, UserName, DeviceName … field). */
  name?: (record: Record<string, unknown>) => string | undefined;
  /** The page-level record it belongs to (a type part's type, a camera's device). */
  owner?: (record: Record<string, unknown>) => AuditRef | undefined;
}

/** What a call adds to its entry as it runs (`noteAudit`): what only the handler knows. */
export interface AuditNote {
  /** Who made the call, when the request has no session (signing in). */
  actor?: { id: number; account: string; groupId: number };
  /** The tenant whose data changed, when it is not the caller's. */
  groupId?: number | null;
  /** The record, when neither the request nor the answer names it. */
  id?: AuditId;
  before?: unknown;
  after?: unknown;
  /** The record's name, when its before and after do not hold one. */
  name?: string;
  /** Another action than the declared one (a refused sign-in). */
  action?: AuditAction;
}

export type AuditIdSource = (request: FastifyRequest) => AuditId | AuditId[] | null | undefined;

export interface AuditedCall {
  subject: AuditSubject;
  /** Default: POST create, PUT update, DELETE delete, GET update. */
  action?: AuditAction;
  /** The record the call changes, from the request (several: one entry each); a create's is in its answer. */
  id?: AuditIdSource;
  /** A create's id in its answer's data (default: its Id). */
  createdId?: (data: Record<string, unknown>) => AuditId | undefined;
  /** The page-level record, when the subject's record does not tell it. */
  owner?: (request: FastifyRequest) => AuditRef | undefined;
  /**
   * Refusals are entries too (signing in: they are security-relevant), and what the call wrote
   * before it was refused stays (the sign-in throttle's count). The handler notes the action.
   */
  recordRefusals?: true;
  /**
   * The handler notes the record before (and after) itself, read in the call's transaction
   * (`beginNow`): the audit does not read it again (the generic resource).
   */
  handlerNotes?: true;
  /** The call's answer is the record after it, as `subject.load` reads it: the audit does not read it again. */
  answerIsRecord?: true;
}

export type AuditDeclaration = AuditedCall | { exempt: string };

declare module 'fastify' {
  interface FastifyContextConfig {
    audit?: AuditDeclaration;
  }
  interface FastifyRequest {
    /** What the handler adds to the call's audit entry. */
    auditNote: AuditNote | null;
  }
}

const field = (source: unknown, name: string): AuditId | AuditId[] | undefined => {
  if (source === null || typeof source !== 'object') return undefined;
  const record = source as Record<string, unknown>;
  const value = record[name] ?? record[name.charAt(0).toLowerCase() + name.slice(1)];
  if (typeof value === 'number' || (typeof value === 'string' && value !== '')) return value;
  if (Array.isArray(value)) return value.filter((v): v is AuditId => typeof v === 'number' || typeof v === 'string');
  return undefined;
};

/** The record named by a body field (Id, DeviceSn, Ids …). */
export const fromBody =
  (name: string): AuditIdSource =>
  (request) =>
    field(request.body, name);

/** The record named by a path parameter. */
export const fromParams =
  (name: string): AuditIdSource =>
  (request) =>
    field(request.params, name);

/** The record named by a query parameter. */
export const fromQuery =
  (name: string): AuditIdSource =>
  (request) =>
    field(request.query, name);

/** Adds to the call's audit entry what only the handler knows (merged with what it noted before). */
export function noteAudit(request: FastifyRequest, note: AuditNote): void {
  request.auditNote = { ...request.auditNote, ...note };
}

/** The device a path parameter names, as the page-level record of an entry. */
export const deviceInParams =
  (name: string) =>
  (request: FastifyRequest): AuditRef | undefined => {
    const sn = (request.params as Record<string, unknown> | undefined)?.[name];
    return typeof sn === 'string' && sn !== '' ? { kind: 'device', id: sn } : undefined;
  };

/** A subject without a way to read its record: the entry keeps the answer (or the request). */
export const plainSubject = (kind: AuditKind, owner?: AuditSubject['owner']): AuditSubject => ({
  kind,
  ...(owner ? { owner } : {}),
});
