/** The pure parts of notifications: quiet hours across midnight, the SMS signature, which rules cover an alarm, the texts. */
import { describe, expect, it } from 'vitest';
import { covers, quietUntil } from './notifications.service.ts';
import { percentEncode, smsSignature } from './channels/sms.channel.ts';
import { webhookSignature } from './channels/webhook.channel.ts';
import { noticeText } from './notify-message.ts';
import type { RuleRow } from './notifications.repository.ts';

const H = 3_600_000;
/** 2026-11-20 00:00 at +08:00. */
const midnight = Date.UTC(2026, 10, 19, 16, 0);
const at = (hours: number, minutes = 0) => midnight + hours * H + minutes * 60_000;

describe('quiet hours', () => {
  const night = { enabled: true, start: '22:00', end: '07:00' };
  it('hold from their start to their end across midnight, in local time', () => {
    expect(quietUntil(night, at(21, 59), 480)).toBeUndefined();
    expect(quietUntil(night, at(22), 480)).toBe(at(24 + 7));
    expect(quietUntil(night, at(23, 30), 480)).toBe(at(24 + 7));
    expect(quietUntil(night, at(3), 480)).toBe(at(7));
    expect(quietUntil(night, at(7), 480)).toBeUndefined();
  });
  it('within one day, and not at all when turned off', () => {
    const lunch = { enabled: true, start: '12:00', end: '13:30' };
    expect(quietUntil(lunch, at(12, 15), 480)).toBe(at(13, 30));
    expect(quietUntil(lunch, at(13, 30), 480)).toBeUndefined();
    expect(quietUntil({ ...night, enabled: false }, at(23), 480)).toBeUndefined();
  });
});

describe('SendSms signature', () => {
  it('matches the example of the provider’s documentation', () => {
    const params = {
      AccessKeyId: 'testId',
      Action: 'SendSms',
      Format: 'XML',
      OutId: '123',
      PhoneNumbers: '15300000001',
      RegionId: 'cn-hangzhou',
      SignName: '阿里云短信测试专用',
      SignatureMethod: 'HMAC-SHA1',
      SignatureNonce: '45e25e9b-0a6f-4070-8c85-2956eda1b466',
      SignatureVersion: '1.0',
      TemplateCode: 'SMS_71390007',
      TemplateParam: '{"customer":"test"}',
      Timestamp: '2017-07-12T02:42:19Z',
      Version: '2017-05-25',
    };
    expect(smsSignature('GET', params, 'testSecret')).toBe('zJDF+Lrzhj/ThnlvIToysFRq6t4=');
    expect(percentEncode("a b*~'")).toBe('a%20b%2A~%27');
  });
});

describe('webhook signature', () => {
  it('is the HMAC-SHA256 of the timestamp and the body', () => {
    // echo -n '1700000000000.{"a":1}' | openssl dgst -sha256 -hmac secret
    expect(webhookSignature('secret', '1700000000000', '{"a":1}')).toBe(
      'sha256=4ef2732b0d632a6897af3a6d02a6de287f60d6c5f15dabdb0ceb045a34e3c5a7',
    );
    expect(webhookSignature('secret', '1700000000000', '{"a":1}')).not.toBe(
      webhookSignature('secret', '1700000000001', '{"a":1}'),
    );
  });
});

describe('rules', () => {
  const rule = (fields: Partial<RuleRow>): RuleRow => ({
    id: 1,
    group_id: 1,
    name: 'r',
    enabled: 1,
    level: 1,
    delay_minutes: 0,
    channel_id: 1,
    type_ids: '',
    project_ids: '',
    user_ids: '',
    urgent: 0,
    ...fields,
  });
  it('cover an alarm of their warn types on a device in or below their projects', () => {
    expect(covers(rule({}), null, [])).toBe(true);
    expect(covers(rule({ type_ids: '3,4' }), 4, [9])).toBe(true);
    expect(covers(rule({ type_ids: '3,4' }), 5, [9])).toBe(false);
    expect(covers(rule({ type_ids: '3' }), null, [9])).toBe(false);
    // The station 9 is below the project 2.
    expect(covers(rule({ project_ids: '2' }), 4, [9, 2])).toBe(true);
    expect(covers(rule({ project_ids: '7' }), 4, [9, 2])).toBe(false);
  });
});

describe('texts', () => {
  const alarm = {
    id: 1,
    code: 'E101',
    description: '提升泵1故障',
    typeName: '故障',
    deviceSn: 'SLN000000001',
    deviceName: '提升泵',
    projectName: '青山站',
    openedAt: at(8, 5),
    active: true,
    source: 'device',
  };
  it('say what, where and when in the recipient’s language, and that an escalation is still unhandled', () => {
    const zh = noticeText(alarm, 2, 'zh-CN', 480);
    expect(zh.subject).toBe('【第 2 级，仍未处理】[Sluice] 故障：E101 提升泵1故障 · 青山站');
    expect(zh.text).toContain('发生时间：2026-11-20 08:05');
    const en = noticeText({ ...alarm, active: false }, 1, 'en-US', 480);
    expect(en.text).toContain('State: cleared, not handled yet');
  });
});
