import nodemailer from 'nodemailer';
import { type ChannelAdapter, ChannelError } from './channel';

export interface SmtpSettings {
  host: string;
  port: number;
  secure: boolean;
  user: string;
  password: string;
  from: string;
  timeoutMs: number;
}

/** SMTP answers that say the address or the message is wrong (5xx); anything else (4xx, the network) may pass later. */
const permanent = (err: { responseCode?: number; code?: string }) =>
  (err.responseCode !== undefined && err.responseCode >= 500) || err.code === 'EENVELOPE';

/** E-mail through the tenant's SMTP server (settings `message.email.*`), by nodemailer. */
export function emailChannel(settings: SmtpSettings): ChannelAdapter {
  const transport = settings.host
    ? nodemailer.createTransport({
        host: settings.host,
        port: settings.port,
        secure: settings.secure,
        auth: settings.user ? { user: settings.user, pass: settings.password } : undefined,
        connectionTimeout: settings.timeoutMs,
        greetingTimeout: settings.timeoutMs,
        socketTimeout: settings.timeoutMs,
      })
    : undefined;
  return {
    channel: 'email',
    async send(message) {
      if (!transport) throw new ChannelError('not_configured', 'no SMTP server is set (message.email.smtpHost)', false);
      if (!message.address) throw new ChannelError('no_address', 'the recipient has no e-mail address', false);
      try {
        const info = await transport.sendMail({
          from: settings.from || settings.user,
          to: message.address,
          subject: message.title ?? '',
          text: message.content,
        });
        return { providerId: info.messageId };
      } catch (err) {
        const e = err as Error & { responseCode?: number; code?: string };
        throw new ChannelError(
          e.responseCode ? `smtp_${e.responseCode}` : (e.code ?? 'smtp_error'),
          e.message.slice(0, 500),
          !permanent(e),
        );
      }
    },
  };
}
