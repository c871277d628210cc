/** One error handler: validation names the field, expected errors speak the user's language, 5xx hides internals. */
import type { FastifyError, FastifyInstance } from 'fastify';
import { isMessageKey, translate, type Language, type MessageKey } from '@sluice/shared/i18n';
import { parseMessageRef } from '@sluice/shared/rules';
import { AppError, type ErrorParams } from './errors.ts';
import { requestLanguage } from './language.ts';
import { RequestValidationError, fieldErrors } from './validation.ts';

/** Parameters with nested messages worded in `lang`. */
function wordParams(lang: Language, params: ErrorParams): Record<string, string | number> {
  return Object.fromEntries(
    Object.entries(params).map(([name, value]) => {
      if (typeof value !== 'object') return [name, value];
      const ref = parseMessageRef(value.ref);
      return [name, isMessageKey(ref.key) ? translate(lang, ref.key, ref.params) : value.ref];
    }),
  );
}

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const lang = requestLanguage(request);
    if (error instanceof RequestValidationError) {
      const errors = fieldErrors(error, lang);
      const message = errors.map((e) => `${e.field}: ${e.message}`).join('; ');
      return reply.status(400).send({ success: false, message, data: { errors } });
    }
    if (error instanceof AppError) {
      const message = translate(lang, error.key, wordParams(lang, error.params));
      if (!error.field) return reply.status(error.statusCode).send({ success: false, message, data: null });
      return reply
        .status(error.statusCode)
        .send({ success: false, message: `${error.field}: ${message}`, data: { errors: [{ field: error.field, message }] } });
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.status(500).send({ success: false, message: translate(lang, 'error.internal'), data: null });
    }
    const known: Partial<Record<number, MessageKey>> = {
      413: 'error.tooLarge',
      429: 'error.tooManyRequests',
      404: 'error.notFound',
    };
    const key = known[status];
    const message = key ? translate(lang, key, { limit: '' }) : error.message;
    return reply.status(status).send({ success: false, message, data: null });
  });
}
