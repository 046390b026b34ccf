import { AppError } from '../../../core/errors';
import { type ChannelAdapter, ChannelError, type Outgoing } from '../channel/channel';
import { WECHAT_ERRCODE, WechatApiError, WechatUnreachableError } from './wechat-client';
import { createWechatConnections, type WechatConnectionDeps } from './wechat-connection';

/** errcodes worth trying again later: WeChat busy, or the account's quota reached. */
const RETRYABLE: ReadonlySet<number> = new Set([WECHAT_ERRCODE.busy, WECHAT_ERRCODE.rateLimited]);

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/**
 * The template's fields as WeChat's `data`: `dataMapping` names, for each keyword of the WeChat template, the
 * parameter that fills it (`{ thing1: 'courseName' }`); without one, every parameter is the keyword of its name.
 */
export function templateData(params: Record<string, string>, mapping: unknown): Record<string, { value: string }> {
  const entries =
    mapping && typeof mapping === 'object'
      ? Object.entries(mapping as Record<string, unknown>).map(([keyword, param]) => [
          keyword,
          params[String(param)] ?? '',
        ])
      : Object.entries(params);
  return Object.fromEntries(entries.map(([keyword, value]) => [keyword, { value }]));
}

/**
 * WeChat template messages (channel `wechat_mp`): `outgoing.extra.wechatAccountId` names the tenant's official account,
 * `outgoing.externalTemplateId` the WeChat template, `outgoing.address` the follower's openid; `extra.dataMapping`
 * maps the parameters to the template's keywords, `extra.url` is where the message opens.
 */
export function wechatChannel(deps: WechatConnectionDeps): ChannelAdapter {
  const connections = createWechatConnections(deps);
  return {
    channel: 'wechat_mp',
    async send(outgoing: Outgoing) {
      const accountId = outgoing.extra.wechatAccountId;
      if (typeof accountId !== 'string' && typeof accountId !== 'number')
        throw new ChannelError('wechat.noAccount', 'the template names no WeChat official account', false);
      if (!outgoing.address)
        throw new ChannelError('wechat.noOpenid', 'the recipient follows no official account', false);
      if (!outgoing.externalTemplateId)
        throw new ChannelError('wechat.noTemplate', 'the template names no WeChat template', false);
      try {
        const account = await connections.open(outgoing.tenantId, String(accountId));
        const providerId = await account.client.sendTemplate({
          openid: outgoing.address,
          templateId: outgoing.externalTemplateId,
          data: templateData(outgoing.params, outgoing.extra.dataMapping),
          url: text(outgoing.extra.url),
        });
        return { providerId };
      } catch (err) {
        if (err instanceof WechatUnreachableError) throw new ChannelError('wechat.unreachable', err.message, true);
        if (err instanceof WechatApiError)
          throw new ChannelError(`wechat.${err.errcode}`, err.errmsg || err.message, RETRYABLE.has(err.errcode));
        if (err instanceof AppError) throw new ChannelError(err.code, err.code, false);
        throw err;
      }
    },
  };
}
