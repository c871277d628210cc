/** Builds the `{ success, message, data, count? }` envelope, and its schema for the docs. */
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { translate, type MessageKey } from '@sluice/shared/i18n';
import type { Envelope } from '@sluice/shared/envelope';
import { requestLanguage } from './language.ts';

export function ok<T>(
  request: FastifyRequest,
  data: T,
  options: { message?: MessageKey; params?: Record<string, string | number>; count?: number } = {},
): Envelope<T> {
  const envelope: Envelope<T> = {
    success: true,
    message: translate(requestLanguage(request), options.message ?? 'ok', options.params),
    data,
  };
  if (options.count !== undefined) envelope.count = options.count;
  return envelope;
}

export const envelopeOf = <T extends z.ZodType>(data: T) =>
  z.object({ success: z.boolean(), message: z.string(), data, count: z.number().optional() });

export const errorEnvelope = z.object({
  success: z.literal(false),
  message: z.string(),
  data: z.unknown(),
});
