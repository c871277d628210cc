/**
 * SMS through a provider shaped like Alibaba Cloud's SendSms (dysmsapi, RPC style): a form POST
 * to SMS_API_URL with Action=SendSms, PhoneNumbers, SignName, TemplateCode, TemplateParam (JSON
 * of the template's variables), the common parameters, and Signature: the base64 HMAC-SHA1,
 * under '<AccessKeySecret>&', of 'POST&%2F&' and the percent-encoded sorted query. The provider
 * answers { Code: 'OK', BizId } or another Code with a Message.
 */
import { createHmac, randomUUID } from 'node:crypto';
import {
  DeliveryError,
  SEND_TIMEOUT_MS,
  bodyExcerpt,
  reasonOf,
  type AlarmNotice,
  type ChannelAdapter,
  type ChannelSettings,
} from './channel.ts';

/** RFC 3986 encoding as the provider signs it (space %20, '*' %2A, '~' kept). */
export const percentEncode = (value: string): string =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** The Signature of a request's parameters (without Signature). */
export function smsSignature(method: 'GET' | 'POST', params: Record<string, string>, accessKeySecret: string): string {
  const query = Object.keys(params)
    .sort()
    .map((k) => `${percentEncode(k)}=${percentEncode(params[k] ?? '')}`)
    .join('&');
  const toSign = `${method}&${percentEncode('/')}&${percentEncode(query)}`;
  return createHmac('sha1', `${accessKeySecret}&`).update(toSign).digest('base64');
}

/** The template's variables: short values, as providers cap each at about 20 characters. */
export function smsTemplateParam(notice: AlarmNotice): Record<string, string> {
  const cut = (v: string) => (v.length > 20 ? v.slice(0, 20) : v);
  const a = notice.alarm;
  return {
    code: cut(a.code),
    desc: cut(a.description),
    device: cut(a.deviceName || a.deviceSn),
    station: cut(a.projectName),
    time: notice.openedAtText,
    level: String(notice.level),
  };
}

export class SmsChannel implements ChannelAdapter {
  private readonly apiUrl: string;
  private readonly now: () => number;

  constructor(apiUrl: string, now: () => number = Date.now) {
    this.apiUrl = apiUrl;
    this.now = now;
  }

  async send(settings: ChannelSettings, recipient: string, notice: AlarmNotice): Promise<void> {
    const params: Record<string, string> = {
      AccessKeyId: settings.userName,
      Action: 'SendSms',
      Format: 'JSON',
      OutId: String(notice.deliveryId),
      PhoneNumbers: recipient,
      RegionId: 'cn-hangzhou',
      SignName: settings.sender,
      SignatureMethod: 'HMAC-SHA1',
      SignatureNonce: randomUUID(),
      SignatureVersion: '1.0',
      TemplateCode: settings.template,
      TemplateParam: JSON.stringify(smsTemplateParam(notice)),
      Timestamp: new Date(this.now()).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      Version: '2017-05-25',
    };
    const body = new URLSearchParams({ ...params, Signature: smsSignature('POST', params, settings.secret) });
    let response: Response;
    try {
      response = await fetch(this.apiUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
        signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
      });
    } catch (error) {
      throw new DeliveryError(`The SMS provider cannot be reached (${reasonOf(error)})`);
    }
    const text = await bodyExcerpt(response);
    let answer: Record<string, unknown> = {};
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed && typeof parsed === 'object') answer = parsed as Record<string, unknown>;
    } catch {
      // not JSON: reported below with the status
    }
    if (answer.Code === 'OK') return;
    const code = typeof answer.Code === 'string' ? answer.Code : `HTTP ${String(response.status)}`;
    const message = typeof answer.Message === 'string' ? answer.Message : text;
    throw new DeliveryError(`SMS provider: ${code}${message ? ` ${message}` : ''}`);
  }
}
