/**
 * Request validation with the shared zod schemas. Issues keep their raw details so the error
 * handler can word them in the caller's language.
 */
import type { FastifySchemaCompiler } from 'fastify';
import { safeParse, type $ZodIssue, type $ZodType } from 'zod/v4/core';
import { z } from 'zod';
import { isMessageKey, translate, type Language } from '@sluice/shared/i18n';
import { parseMessageRef } from '@sluice/shared/rules';
import type { FieldError } from '@sluice/shared/envelope';

export class RequestValidationError extends Error {
  readonly statusCode = 400;
  readonly issues: $ZodIssue[];
  readonly part: string;
  constructor(issues: $ZodIssue[], part: string) {
    super('validation');
    this.issues = issues;
    this.part = part;
  }
}

/** Where a text holds NUL, which no text column stores (PostgreSQL refuses it): refused as a field error. */
function nulIssues(value: unknown, path: PropertyKey[] = [], found: $ZodIssue[] = []): $ZodIssue[] {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) found.push({ code: 'custom', path, message: 'rule.noNul', input: value });
  } else if (value !== null && typeof value === 'object' && found.length < 20) {
    for (const [key, inner] of Object.entries(value))
      nulIssues(inner, [...path, Array.isArray(value) ? Number(key) : key], found);
  }
  return found;
}

export const zodValidatorCompiler: FastifySchemaCompiler<$ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    const nul = nulIssues(data);
    if (nul.length > 0) return { error: new RequestValidationError(nul, httpPart ?? 'body') };
    const result = safeParse(schema, data, { reportInput: true });
    if (result.success) return { value: result.data };
    return { error: new RequestValidationError(result.error.issues, httpPart ?? 'body') };
  };

const zhLocale = z.locales.zhCN();

function describeIssue(issue: $ZodIssue, lang: Language): string {
  const ref = parseMessageRef(issue.message);
  if (isMessageKey(ref.key)) return translate(lang, ref.key, ref.params);
  if (issue.code === 'invalid_type' && (issue as { input?: unknown }).input === undefined) {
    return translate(lang, 'rule.required');
  }
  if (lang === 'zh-CN') {
    const worded = zhLocale.localeError(issue as never);
    if (typeof worded === 'string') return worded;
    if (worded && typeof worded === 'object' && 'message' in worded) return worded.message;
  }
  return issue.message;
}

export function fieldErrors(error: RequestValidationError, lang: Language): FieldError[] {
  return error.issues.map((issue) => ({
    field: issue.path.length ? issue.path.map(String).join('.') : error.part,
    message: describeIssue(issue, lang),
  }));
}
