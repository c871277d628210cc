/**
 * The audit trail of every write (issue 22). Each API route declares `config.audit`
 * (audit-trail.ts); a route that is not a GET and declares nothing is refused when it is
 * registered, as one that declares no access is.
 *
 * An audited call runs in a request scope with one transaction (db/request-transaction.ts): it
 * begins at the call's first write, the record the call names is read in it first (before), the
 * call runs, the record is read again (after) and the entry is written, and then everything
 * commits at once — before the answer is sent. A refused call (an error, or an answer of 400 or
 * more) rolls back everything it wrote and leaves no entry; a call declared `recordRefusals`
 * (signing in) keeps what it wrote and its entry says it was refused.
 *
 * Every other API call (the GETs, the exempt) runs in an observing scope, which notes whether it
 * wrote: a GET that writes without declaring an audit is logged and listed in `app.auditGaps`
 * (the audit suite calls every route and expects none).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import fp from 'fastify-plugin';
import { changedKeys, maskSecrets, type AuditAction } from '@sluice/shared/audit.schema';
import { runInScope, type RequestScope } from '../../db/request-transaction.ts';
import { AppError } from '../../http/errors.ts';
import type { AuditDeclaration, AuditedCall, AuditId, AuditNote, AuditRef } from './audit-trail.ts';
import type { AuditInsert } from './audit.repository.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Routes that wrote without declaring an audit (`METHOD /url`). */
    auditGaps: Set<string>;
  }
}

const NAME_FIELDS = [
  'Name',
  'UserName',
  'Account',
  'DeviceName',
  'TypeName',
  'TempName',
  'ClientName',
  'GroupName',
  'ProjectName',
  'ModuleName',
  'DataName',
  'VideoName',
  'PanelName',
  'ControlName',
  'ImageName',
  'RepairTitle',
  'PollTitle',
  'Description',
  'DataKey',
  'Code',
  'DeviceSn',
];

const asRecord = (v: unknown): Record<string, unknown> | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

function defaultName(record: Record<string, unknown>): string {
  for (const key of NAME_FIELDS) {
    const value = record[key];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return '';
}

const methodAction = (method: string): AuditAction => (method === 'POST' ? 'create' : method === 'DELETE' ? 'delete' : 'update');

/** Whether the route changes things by its method (everything but GET and HEAD). */
const writesByMethod = (methods: string[]) => methods.some((m) => m !== 'GET' && m !== 'HEAD');

const isApi = (url: string) => url.toLowerCase().startsWith('/api/') && !url.toLowerCase().startsWith('/api/docs');

/** The JSON of an answer the handler gave: what it returned, or what it sent. */
function answerData(payload: unknown): unknown {
  if (typeof payload === 'string') {
    try {
      return asRecord(JSON.parse(payload))?.data;
    } catch {
      return undefined;
    }
  }
  const record = asRecord(payload);
  return record && 'success' in record ? record.data : undefined;
}

/** One entry being made: what the call is about, read before its first write and after it ran. */
class PendingEntry {
  private readonly app: FastifyInstance;
  private readonly declaration: AuditedCall;
  private readonly request: FastifyRequest;
  private readonly route: string;
  private ids: AuditId[] = [];
  private readonly before = new Map<AuditId, unknown>();

  constructor(app: FastifyInstance, declaration: AuditedCall, request: FastifyRequest, route: string) {
    this.app = app;
    this.declaration = declaration;
    this.request = request;
    this.route = route;
  }

  private requestIds(): AuditId[] {
    const value = this.declaration.id?.(this.request);
    if (value === undefined || value === null) return [];
    return [value].flat().filter((id) => id !== '');
  }

  /** The record as the subject reads it; null when there is none (a loader refusing with 404 says so too). */
  private async load(id: AuditId): Promise<unknown> {
    const load = this.declaration.subject.load;
    if (!load) return null;
    try {
      return (await load(this.app.ctx, this.request.user, id)) ?? null;
    } catch (error) {
      if (error instanceof AppError && error.statusCode === 404) return null;
      throw error;
    }
  }

  /** In the transaction, before the call's first write. */
  async readBefore(): Promise<void> {
    const noted = this.request.auditNote?.id;
    this.ids = noted === undefined ? this.requestIds() : [noted];
    if (this.declaration.handlerNotes) return;
    for (const id of this.ids) this.before.set(id, await this.load(id));
  }

  /** In the transaction, after the call ran: the entries of the records it changed. */
  async entries(payload: unknown): Promise<AuditInsert[]> {
    const note: AuditNote = this.request.auditNote ?? {};
    const data = answerData(payload);
    let ids = this.ids.length > 0 ? this.ids : this.requestIds();
    if (note.id !== undefined) ids = [note.id];
    if (ids.length === 0) {
      const created = asRecord(data);
      const id = created && (this.declaration.createdId ? this.declaration.createdId(created) : created.Id);
      if (typeof id === 'number' || (typeof id === 'string' && id !== '')) ids = [id];
    }
    const hasLoad = this.declaration.subject.load !== undefined;
    const fallbackAfter = data ?? asRecord(this.request.body) ?? null;
    const targets: (AuditId | undefined)[] = ids.length > 0 ? ids : [undefined];
    const entries: AuditInsert[] = [];
    for (const id of targets) {
      const before = 'before' in note ? note.before : id === undefined ? null : (this.before.get(id) ?? null);
      const after =
        'after' in note
          ? note.after
          : this.declaration.answerIsRecord && asRecord(data)
            ? data
            : hasLoad && id !== undefined
              ? await this.load(id)
              : fallbackAfter;
      entries.push(this.entry(id, before, after, note));
    }
    return entries;
  }

  /** A refused call's entry (recordRefusals): the handler noted what it was. */
  refusal(): AuditInsert {
    const note = this.request.auditNote ?? {};
    return this.entry(note.id, note.before ?? null, note.after ?? null, note);
  }

  private entry(id: AuditId | undefined, before: unknown, after: unknown, note: AuditNote): AuditInsert {
    const { subject } = this.declaration;
    const user = this.request.user;
    const record = asRecord(after) ?? asRecord(before) ?? {};
    const owner: AuditRef | undefined = subject.owner?.(record) ?? this.declaration.owner?.(this.request);
    const actor = note.actor ?? (user ? { id: user.id, account: user.account, groupId: user.groupId } : undefined);
    const account = actor?.account ?? (asRecord(this.request.body)?.Account as string | undefined) ?? '';
    return {
      at: Date.now(),
      group_id: note.groupId !== undefined ? note.groupId : (actor?.groupId ?? null),
      user_id: actor?.id ?? null,
      account: typeof account === 'string' ? account.slice(0, 64) : '',
      address: this.request.ip,
      action: note.action ?? this.declaration.action ?? methodAction(this.request.method),
      resource_kind: subject.kind,
      resource_id: id === undefined ? '' : String(id),
      resource_name: (note.name ?? subject.name?.(record) ?? defaultName(record)).slice(0, 200),
      owner_kind: owner?.kind ?? '',
      owner_id: owner === undefined ? '' : String(owner.id),
      route: this.route,
      before: before === null || before === undefined ? null : JSON.stringify(maskSecrets(before)),
      after: after === null || after === undefined ? null : JSON.stringify(maskSecrets(after)),
      changed: JSON.stringify(changedKeys(before, after)),
    };
  }
}

/**
 * Settles the call when its handler sends its answer (reply.send) or returns it, whichever comes
 * first: the entry is written and the transaction commits (or rolls back) before the answer goes
 * out, so that it never reaches the caller before the change it reports is visible to their next
 * call. (A handler that returns `reply` resolves only once the answer is out: the settling is
 * started by its send, not by its end.)
 */
function settleOnSend(reply: FastifyReply, settle: (payload: unknown) => Promise<void>) {
  let settling: Promise<void> | undefined;
  const own = reply as FastifyReply & { send: FastifyReply['send'] };
  // Put back by assigning Fastify's own (not by delete, which would slow every later use of the reply).
  // eslint-disable-next-line @typescript-eslint/unbound-method -- put back on the same reply, called as reply.send
  const fastifySend = own.send;
  const restore = () => {
    own.send = fastifySend;
  };
  own.send = (payload?: unknown) => {
    restore();
    settling = settle(payload).then(
      () => {
        reply.send(payload);
      },
      (error: unknown) => {
        reply.send(error instanceof Error ? error : new Error(String(error)));
      },
    );
    return reply;
  };
  return {
    restore,
    /** The settling a send started, if the handler sent. */
    get sent(): Promise<void> | undefined {
      return settling;
    },
  };
}

export interface AuditOptions {
  /** Off only for the benchmark that measures what the trail costs (AUDIT_WRITES=0). */
  enabled: boolean;
}

export const auditPlugin = fp(
  (app: FastifyInstance, options: AuditOptions, done: () => void) => {
    app.decorate('auditGaps', new Set<string>());
    app.decorateRequest('auditNote', null);
    app.ctx.audit.onMoveError = (error) => {
      app.log.error({ err: error }, 'moving the newest audit entries into audit_log (tried again at the next)');
    };

    const observed = (route: string, handler: RouteHandlerMethod, exempt: boolean): RouteHandlerMethod =>
      async function (this: FastifyInstance, request, reply) {
        return runInScope({ transaction: false }, async (scope) => {
          try {
            return await handler.call(this, request, reply);
          } finally {
            await scope.close();
            if (scope.wrote && !exempt && !app.auditGaps.has(route)) {
              app.auditGaps.add(route);
              request.log.error({ route }, 'a call wrote without declaring an audit (config.audit)');
            }
          }
        });
      };

    const audited = (route: string, handler: RouteHandlerMethod, declaration: AuditedCall): RouteHandlerMethod =>
      async function (this: FastifyInstance, request, reply) {
        const pending = new PendingEntry(app, declaration, request, route);
        const onError = (error: unknown) => {
          request.log.error({ err: error }, 'after the commit of an audited call');
        };
        return runInScope({ transaction: true, onBegin: () => pending.readBefore(), onError }, async (scope) => {
          /** Writes the entries and commits; a call answered with an error rolls back instead. */
          const settle = async (payload: unknown) => {
            if (reply.statusCode >= 400) {
              await settleRefusal(scope, pending, declaration);
              return;
            }
            try {
              const entries = await scope.within(() => pending.entries(payload));
              // On PostgreSQL the entries go with the COMMIT, in one round trip.
              const text = scope.connection ? app.ctx.audit.insertText(entries) : undefined;
              if (text === undefined) {
                await scope.within(async () => {
                  for (const entry of entries) await app.ctx.audit.insert(entry);
                });
                await scope.commit();
              } else {
                await scope.commit(text);
              }
            } catch (error) {
              if (scope.state === 'open') await scope.rollback();
              throw error;
            }
          };
          const sends = settleOnSend(reply, settle);
          let result: unknown;
          try {
            result = await handler.call(this, request, reply);
          } catch (error) {
            sends.restore();
            if (sends.sent) throw error;
            await settleRefusal(scope, pending, declaration);
            throw error;
          }
          sends.restore();
          if (sends.sent) {
            await sends.sent;
            return reply;
          }
          await settle(result);
          return result;
        });
      };

    const settleRefusal = async (scope: RequestScope, pending: PendingEntry, declaration: AuditedCall) => {
      if (!declaration.recordRefusals) {
        await scope.rollback();
        return;
      }
      await scope.within(() => app.ctx.audit.insert(pending.refusal()));
      await scope.commit();
    };

    app.addHook('onRoute', (route) => {
      if (!isApi(route.url)) return;
      const methods = [route.method].flat();
      const name = `${methods.join(',')} ${route.url}`;
      const declaration: AuditDeclaration | undefined = route.config?.audit;
      if (declaration === undefined && writesByMethod(methods)) {
        throw new Error(`Route ${name} declares no audit (config.audit: what it changes, or why it is exempt)`);
      }
      if (!options.enabled) return;
      const handler = route.handler;
      route.handler =
        declaration && 'subject' in declaration
          ? audited(name, handler, declaration)
          : observed(name, handler, declaration !== undefined);
    });

    done();
  },
  { name: 'audit', dependencies: ['access'] },
);
