/**
 * One interface for every way an alarm reaches someone: a channel adapter sends one notice to
 * one recipient with its channel's settings (secret already opened), and resolves when the
 * other side accepted it or throws a DeliveryError saying why not, in words an administrator
 * reads in the delivery history.
 */
import type { ChannelKind } from '@sluice/shared/notify.schema';

/** What is said about an alarm, whichever the channel. */
export interface AlarmNotice {
  deliveryId: number;
  attempt: number;
  level: number;
  groupId: number;
  ruleId: number | null;
  ruleName: string;
  alarm: {
    id: number;
    code: string;
    description: string;
    typeName: string;
    deviceSn: string;
    deviceName: string;
    projectName: string;
    /** When it opened (ms). */
    openedAt: number;
    active: boolean;
    source: string;
  };
  /** The subject and text for a person, in their language. */
  subject: string;
  text: string;
  /** Local time of the opening, as the text shows it. */
  openedAtText: string;
}

export interface ChannelSettings {
  kind: ChannelKind;
  url: string;
  smtpHost: string;
  smtpPort: number;
  smtpSecure: boolean;
  userName: string;
  /** Opened: the webhook's signing secret, the SMTP password or the SMS AccessKeySecret. */
  secret: string;
  sender: string;
  template: string;
}

export interface ChannelAdapter {
  send(settings: ChannelSettings, recipient: string, notice: AlarmNotice): Promise<void>;
}

/** A delivery the other side refused or never answered; the message is kept as the reason. */
export class DeliveryError extends Error {
  override readonly name = 'DeliveryError';
}

/** How long any channel may take to answer. */
export const SEND_TIMEOUT_MS = 10_000;

/** The reason of a failure, short enough for the history. */
export function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.length > 500 ? `${message.slice(0, 497)}...` : message;
}

/** An answer's body as text for a reason (at most 200 characters). */
export async function bodyExcerpt(response: Response): Promise<string> {
  try {
    const text = (await response.text()).trim();
    return text.length > 200 ? `${text.slice(0, 197)}...` : text;
  } catch {
    return '';
  }
}
