/**
 * A webhook: the alarm as JSON, POSTed to the channel's URL and signed so the receiver can tell
 * it came from Sluice and was not replayed: X-Sluice-Timestamp (ms) and X-Sluice-Signature,
 * 'sha256=' and the hex HMAC-SHA256 under the channel's secret of '<timestamp>.<body>'.
 * Any 2xx answer is delivered; anything else (or no answer within SEND_TIMEOUT_MS) is a
 * failure the job retries with back-off.
 */
import { createHmac } from 'node:crypto';
import { DeliveryError, SEND_TIMEOUT_MS, bodyExcerpt, reasonOf, type AlarmNotice, type ChannelAdapter } from './channel.ts';

export const SIGNATURE_HEADER = 'x-sluice-signature';
export const TIMESTAMP_HEADER = 'x-sluice-timestamp';

export function webhookSignature(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** The JSON a webhook receives. */
export function webhookBody(notice: AlarmNotice): Record<string, unknown> {
  const a = notice.alarm;
  return {
    Event: 'alarm.opened',
    DeliveryId: notice.deliveryId,
    Attempt: notice.attempt,
    Level: notice.level,
    Rule: { Id: notice.ruleId, Name: notice.ruleName },
    Alarm: {
      Id: a.id,
      Code: a.code,
      Description: a.description,
      TypeName: a.typeName,
      DeviceSn: a.deviceSn,
      DeviceName: a.deviceName,
      ProjectName: a.projectName,
      Dt: a.openedAt,
      Active: a.active ? 1 : 0,
      Source: a.source,
    },
    Text: notice.text,
  };
}

export class WebhookChannel implements ChannelAdapter {
  private readonly now: () => number;

  constructor(now: () => number = Date.now) {
    this.now = now;
  }

  async send(settings: { url: string; secret: string }, _recipient: string, notice: AlarmNotice): Promise<void> {
    const body = JSON.stringify(webhookBody(notice));
    const timestamp = String(this.now());
    let response: Response;
    try {
      response = await fetch(settings.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Sluice-Webhook/1',
          [TIMESTAMP_HEADER]: timestamp,
          [SIGNATURE_HEADER]: webhookSignature(settings.secret, timestamp, body),
          'x-sluice-delivery': String(notice.deliveryId),
        },
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
      });
    } catch (error) {
      const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
      throw new DeliveryError(`No answer from ${new URL(settings.url).host} (${reasonOf(error)}${cause})`);
    }
    if (response.status < 200 || response.status >= 300) {
      const excerpt = await bodyExcerpt(response);
      throw new DeliveryError(`HTTP ${String(response.status)}${excerpt ? `: ${excerpt}` : ''}`);
    }
    await response.body?.cancel();
  }
}
