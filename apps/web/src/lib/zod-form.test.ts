import { afterEach, describe, expect, it } from 'vitest';
import type { FormInstance, FormRule } from 'antd';
import { z } from 'zod';
import { anyText, landline, mobile, optional, phone } from '@sluice/shared/rules';
import { changePasswordRequest } from '@sluice/shared/account.schema';
import { changeLanguage } from './i18n';
import { zodObjectRule, zodRules } from './zod-form';

const contact = z.object({
  Mobile: mobile,
  Landline: landline,
  Name: anyText(4, 32),
  Phone: optional(phone),
});

/** Runs one antd rule the way Form does and returns the error message, or undefined when valid. */
async function check(
  rule: FormRule | undefined,
  value: unknown,
  values: Record<string, unknown> = {},
): Promise<string | undefined> {
  if (!rule) throw new Error('no rule');
  const form = { getFieldsValue: () => values } as unknown as FormInstance;
  const object = typeof rule === 'function' ? rule(form) : rule;
  if (!object.validator) throw new Error('rule has no validator');
  try {
    await object.validator(object, value, () => undefined);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

afterEach(async () => {
  await changeLanguage('en-US');
});

describe('zod → Ant Design rules', () => {
  it('gives the translated mobile and landline messages', async () => {
    expect(await check(zodRules(contact, 'Mobile')[0], '12345')).toBe('Enter an 11-digit mainland mobile number');
    expect(await check(zodRules(contact, 'Landline')[0], '12345678')).toBe(
      'Enter a landline as area code-number, e.g. 0755-12345678',
    );
    await changeLanguage('zh-CN');
    expect(await check(zodRules(contact, 'Mobile')[0], '12345')).toBe('请输入正确的 11 位手机号码');
    expect(await check(zodRules(contact, 'Landline')[0], '12345678')).toBe('请输入正确的座机号码，如 0755-12345678');
  });

  it('accepts values the shared rules accept', async () => {
    expect(await check(zodRules(contact, 'Mobile')[0], '13800138000')).toBeUndefined();
    expect(await check(zodRules(contact, 'Landline')[0], '0755-12345678')).toBeUndefined();
    // second digit 6 is not a mainland mobile prefix in the spec's rule
    expect(await check(zodRules(contact, 'Mobile')[0], '16800138000')).toBe('Enter an 11-digit mainland mobile number');
  });

  it('fills message parameters (length min–max)', async () => {
    expect(await check(zodRules(contact, 'Name')[0], 'abc')).toBe('Length must be 4–32 characters');
  });

  it('marks required fields and lets optional ones stay empty', async () => {
    const required = zodRules(contact, 'Mobile')[0];
    const optionalRule = zodRules(contact, 'Phone')[0];
    expect(typeof required === 'object' && required.required).toBe(true);
    expect(typeof optionalRule === 'object' && optionalRule.required).toBe(false);
    expect(await check(required, '')).toBe('Required');
    expect(await check(optionalRule, '')).toBeUndefined();
    expect(await check(optionalRule, '0755-1234')).toBe('Enter a mobile number or a landline (area code-number)');
  });

  it('reports cross-field refinements on their field (password confirmation)', async () => {
    const rule = zodObjectRule(changePasswordRequest, 'PasswordAgain');
    const values = { OldPassword: 'old-pass1', Password: 'newPass123', PasswordAgain: 'newPass124' };
    expect(await check(rule, values.PasswordAgain, values)).toBe('The two passwords differ');
    expect(await check(rule, 'newPass123', { ...values, PasswordAgain: 'newPass123' })).toBeUndefined();
  });
});
