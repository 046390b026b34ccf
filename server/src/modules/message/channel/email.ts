import net from 'node:net';
import nodemailer, { type Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import { type OutboundGuard, UnreachableError } from '../../../core/outbound';
import { type ChannelAdapter, ChannelError } from './channel';

export interface SmtpSettings {
  host: string;
  port: number;
  secure: boolean;
  user: string;
  password: string;
  from: string;
  timeoutMs: number;
  /** The guard of whoever set the server (core/outbound.ts). */
  outbound: OutboundGuard;
}

/** SMTP answers that say the address or the message is wrong (5xx); anything else (4xx, the network) may pass later. */
const permanent = (err: { responseCode?: number; code?: string }) =>
  (err.responseCode !== undefined && err.responseCode >= 500) || err.code === 'EENVELOPE';

/**
 * E-mail through the tenant's SMTP server (settings `message.email.*`), by nodemailer, under the guard of whoever set
 * the server (core/outbound.ts): its name is resolved and checked once, and nodemailer is given the address checked
 * (the name kept for TLS). An SMTP answer is kept as the message's error; a server not reached is one message,
 * whatever the reason (the log says which).
 */
export function emailChannel(settings: SmtpSettings): ChannelAdapter {
  const { outbound } = settings;
  let transport: Promise<Transporter<SMTPTransport.SentMessageInfo>> | undefined;
  const connect = async () => {
    const { address } = await outbound.resolve(settings.host);
    const servername = net.isIP(settings.host) ? undefined : settings.host;
    return nodemailer.createTransport({
      host: address,
      servername,
      tls: servername ? { servername } : undefined,
      port: settings.port,
      secure: settings.secure,
      auth: settings.user ? { user: settings.user, pass: settings.password } : undefined,
      connectionTimeout: settings.timeoutMs,
      greetingTimeout: settings.timeoutMs,
      socketTimeout: settings.timeoutMs,
    });
  };
  return {
    channel: 'email',
    async send(message) {
      if (!settings.host)
        throw new ChannelError('not_configured', 'no SMTP server is set (message.email.smtpHost)', false);
      if (!message.address) throw new ChannelError('no_address', 'the recipient has no e-mail address', false);
      try {
        transport ??= connect();
        const info = await (await transport).sendMail({
          from: settings.from || settings.user,
          to: message.address,
          subject: message.title ?? '',
          text: message.content,
        });
        return { providerId: info.messageId };
      } catch (err) {
        const e = err as Error & { responseCode?: number; code?: string };
        if (!e.responseCode && e.code !== 'EENVELOPE') {
          const failure = new UnreachableError(outbound.failed(err, { channel: 'email', tenantId: message.tenantId }));
          throw new ChannelError('unreachable', failure.message, e.code !== 'EOUTBOUND');
        }
        throw new ChannelError(
          e.responseCode ? `smtp_${e.responseCode}` : (e.code ?? 'smtp_error'),
          e.message.slice(0, 500),
          !permanent(e),
        );
      }
    },
  };
}
