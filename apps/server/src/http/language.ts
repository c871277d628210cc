import type { FastifyRequest } from 'fastify';
import { pickLanguage, type Language } from '@sluice/shared/i18n';

/** The caller's language: the console's `lang` cookie, else Accept-Language, else English. */
export function requestLanguage(request: FastifyRequest): Language {
  const cookie = /(?:^|;\s*)lang=([^;]+)/.exec(request.headers.cookie ?? '')?.[1];
  return pickLanguage(cookie ? decodeURIComponent(cookie) : undefined, request.headers['accept-language']);
}
