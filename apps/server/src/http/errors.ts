/** Errors a service throws on purpose; the error handler turns them into the envelope. */
import type { MessageKey } from '@sluice/shared/i18n';

/** A parameter that is itself a message (a shared rule's reference), worded in the caller's language too. */
export interface NestedMessage {
  ref: string;
}

export type ErrorParams = Record<string, string | number | NestedMessage>;

export class AppError extends Error {
  readonly statusCode: number;
  readonly key: MessageKey;
  readonly params: ErrorParams;
  readonly field: string | undefined;
  constructor(statusCode: number, key: MessageKey, params: ErrorParams = {}, field?: string) {
    super(key);
    this.statusCode = statusCode;
    this.key = key;
    this.params = params;
    this.field = field;
  }
}

export const notFound = () => new AppError(404, 'error.notFound');
export const forbidden = () => new AppError(403, 'auth.forbidden');
