import { type ChannelAdapter, ChannelError } from './channel';

export interface SmsSettings {
  /** The provider's (or the organisation's gateway's) HTTP endpoint; empty: SMS is not set up. */
  endpoint: string;
  apiKey: string;
  signName: string;
  timeoutMs: number;
}

/**
 * SMS through an HTTP gateway (settings `message.sms.*`): one JSON POST per message, `{ mobile, templateCode, params,
 * content, signName }` with the key as a bearer token; a 2xx answer is sent (its `id`, if any, kept). A 4xx answer is
 * the message's fault and is not tried again; a 5xx, a 429 or no answer is.
 */
export function smsChannel(settings: SmsSettings): ChannelAdapter {
  return {
    channel: 'sms',
    async send(message) {
      if (!settings.endpoint)
        throw new ChannelError('not_configured', 'no SMS gateway is set (message.sms.endpoint)', false);
      if (!message.address) throw new ChannelError('no_address', 'the recipient has no mobile number', false);
      let res: Response;
      try {
        res = await fetch(settings.endpoint, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(settings.apiKey && { authorization: `Bearer ${settings.apiKey}` }),
          },
          body: JSON.stringify({
            mobile: message.address,
            templateCode: message.externalTemplateId,
            params: message.params,
            content: message.content,
            signName: settings.signName || undefined,
          }),
          signal: AbortSignal.timeout(settings.timeoutMs),
        });
      } catch (err) {
        throw new ChannelError('unreachable', (err as Error).message.slice(0, 500), true);
      }
      const text = await res.text().catch(() => '');
      if (!res.ok) {
        throw new ChannelError(
          `http_${res.status}`,
          text.slice(0, 500) || res.statusText,
          res.status >= 500 || res.status === 429,
        );
      }
      let id: unknown;
      try {
        id = (JSON.parse(text) as { id?: unknown }).id;
      } catch {
        id = undefined;
      }
      return { providerId: typeof id === 'string' || typeof id === 'number' ? String(id) : undefined };
    },
  };
}
