/**
 * E-mail over SMTP with nodemailer: the channel's server (TLS from the start on 'secure', else
 * STARTTLS when the server offers it), its user and password when set, its From address; a
 * plain-text message per recipient. A refusal or a time-out is the failure's reason.
 */
import nodemailer from 'nodemailer';
import {
  DeliveryError,
  SEND_TIMEOUT_MS,
  reasonOf,
  type AlarmNotice,
  type ChannelAdapter,
  type ChannelSettings,
} from './channel.ts';

export class EmailChannel implements ChannelAdapter {
  async send(settings: ChannelSettings, recipient: string, notice: AlarmNotice): Promise<void> {
    const transport = nodemailer.createTransport({
      host: settings.smtpHost,
      port: settings.smtpPort,
      secure: settings.smtpSecure,
      ...(settings.userName ? { auth: { user: settings.userName, pass: settings.secret } } : {}),
      connectionTimeout: SEND_TIMEOUT_MS,
      greetingTimeout: SEND_TIMEOUT_MS,
      socketTimeout: SEND_TIMEOUT_MS,
    });
    try {
      await transport.sendMail({
        from: settings.sender,
        to: recipient,
        subject: notice.subject,
        text: notice.text,
        headers: { 'X-Sluice-Delivery': String(notice.deliveryId) },
      });
    } catch (error) {
      throw new DeliveryError(`SMTP ${settings.smtpHost}:${String(settings.smtpPort)}: ${reasonOf(error)}`);
    } finally {
      transport.close();
    }
  }
}
