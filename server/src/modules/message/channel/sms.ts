import http from 'node:http';
import https from 'node:https';
import { type OutboundGuard, UnreachableError } from '../../../core/outbound';
import { type ChannelAdapter, ChannelError } from './channel';

export interface SmsSettings {
  /** The provider's (or the organisation's gateway's) HTTP endpoint; empty: SMS is not set up. */
  endpoint: string;
  apiKey: string;
  signName: string;
  timeoutMs: number;
  /** The guard of whoever set the gateway (core/outbound.ts). */
  outbound: OutboundGuard;
}

/** What a gateway answered: its status and the start of its body (no more is kept, whatever it sends). */
interface Answer {
  status: number;
  text: string;
}

const KEPT_BYTES = 64 * 1024;

/** One POST through the guard's agent: no redirect is followed (a redirect is the gateway's answer). */
function post(url: URL, headers: Record<string, string>, body: string, outbound: OutboundGuard, timeoutMs: number) {
  const protocol = url.protocol === 'https:' ? 'https:' : 'http:';
  return new Promise<Answer>((resolve, reject) => {
    const request = (protocol === 'https:' ? https : http).request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        agent: outbound.agent(protocol),
        signal: AbortSignal.timeout(timeoutMs),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size < KEPT_BYTES) chunks.push(chunk);
          size += chunk.length;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/**
 * SMS through an HTTP gateway (settings `message.sms.*`): one JSON POST per message, `{ mobile, templateCode, params,
 * content, signName }` with the key as a bearer token; a 2xx answer is sent (its `id`, if any, kept). A 4xx answer is
 * the message's fault and is not tried again; a 5xx, a 429 or no answer is. The gateway is reached under the guard of
 * whoever set it (core/outbound.ts); one that could not be reached is one message, whatever the reason (the log says
 * which).
 */
export function smsChannel(settings: SmsSettings): ChannelAdapter {
  const { outbound } = settings;
  return {
    channel: 'sms',
    async send(message) {
      if (!settings.endpoint)
        throw new ChannelError('not_configured', 'no SMS gateway is set (message.sms.endpoint)', false);
      if (!message.address) throw new ChannelError('no_address', 'the recipient has no mobile number', false);
      let res: Answer;
      try {
        const url = new URL(settings.endpoint);
        if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${url.protocol} is not HTTP`);
        res = await post(
          url,
          {
            'content-type': 'application/json',
            ...(settings.apiKey && { authorization: `Bearer ${settings.apiKey}` }),
          },
          JSON.stringify({
            mobile: message.address,
            templateCode: message.externalTemplateId,
            params: message.params,
            content: message.content,
            signName: settings.signName || undefined,
          }),
          outbound,
          settings.timeoutMs,
        );
      } catch (err) {
        const failure = new UnreachableError(outbound.failed(err, { channel: 'sms', tenantId: message.tenantId }));
        throw new ChannelError('unreachable', failure.message, (err as { code?: string }).code !== 'EOUTBOUND');
      }
      if (res.status < 200 || res.status >= 300) {
        throw new ChannelError(
          `http_${res.status}`,
          res.text.slice(0, 500) || String(res.status),
          res.status >= 500 || res.status === 429,
        );
      }
      let id: unknown;
      try {
        id = (JSON.parse(res.text) as { id?: unknown }).id;
      } catch {
        id = undefined;
      }
      return { providerId: typeof id === 'string' || typeof id === 'number' ? String(id) : undefined };
    },
  };
}
