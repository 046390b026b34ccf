/**
 * Channels (docs/domain.md §6): every way a message leaves the platform, behind one interface. In-app delivery is built
 * in; e-mail goes through SMTP, SMS and WeChat template messages through HTTP adapters configured in settings.
 */
export const CHANNELS = ['in_app', 'wechat_mp', 'sms', 'email'] as const;
export type Channel = (typeof CHANNELS)[number];

/** One rendered message for one recipient, as a channel sends it. */
export interface Outgoing {
  tenantId: string;
  /** openid, mobile number or e-mail address (none for in-app). */
  address: string | null;
  title: string | null;
  content: string;
  /** The values the template was rendered with (a WeChat template message sends its fields from these). */
  params: Record<string, string>;
  /** The provider's template (WeChat template id, SMS template code), when the channel needs one. */
  externalTemplateId: string | null;
  /** Channel-specific settings of the template (WeChat: account id, data mapping, jump url). */
  extra: Record<string, unknown>;
}

/**
 * A failure a channel reports. `retryable` failures (the provider timed out or answered 5xx, a rate limit) are tried
 * again with back-off; the others (an unknown address, a template the provider refuses) fail the message at once.
 */
export class ChannelError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'ChannelError';
  }
}

export interface ChannelAdapter {
  readonly channel: Channel;
  /** Sends one message; answers the provider's id for it, if any. Throws ChannelError. */
  send(message: Outgoing): Promise<{ providerId?: string }>;
}
