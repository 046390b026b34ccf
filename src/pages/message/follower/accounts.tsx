import type {
  CreateWechatAccount,
  UpdateWechatAccount,
  WechatAccount,
} from '@server/modules/message/wechat/wechat-account.resource';
import { FormattedMessage, useIntl } from '@umijs/max';
import { Drawer, Form, Tag } from 'antd';
import ResourceTable from '@/components/resource/ResourceTable';
import { describeResource } from '@/components/resource/types';
import { resourceService } from '@/services/resource';

export type { WechatAccount };

export const wechatAccounts = resourceService<WechatAccount, CreateWechatAccount, UpdateWechatAccount>(
  'message/wechat-account',
);

/** The tenant's accounts, for the selects of the follower screen. */
export const accountChoices = () =>
  wechatAccounts
    .list({ pageSize: '200' })
    .then(({ data }) => data.map((a) => ({ value: a.id, label: a.name, tags: a.tags })));

const FORM: (keyof CreateWechatAccount & keyof UpdateWechatAccount & string)[] = [
  'name',
  'appId',
  'appSecret',
  'token',
  'aesKey',
  'accountType',
  'primaryIndustry',
  'deputyIndustry',
  'status',
  'remark',
];

/** Under a secret the account keeps: an empty field keeps it. */
function Kept({ flag }: { flag: 'secretSet' | 'aesKeySet' }) {
  const form = Form.useFormInstance();
  return form.getFieldValue(flag) ? <FormattedMessage id="message.wechat.account.appSecret.kept" /> : null;
}

/** Write-only: the row only says one is kept; an emptied field is left out of the body, so the kept one stays. */
const secret = (flag: 'secretSet' | 'aesKeySet') => ({
  valueType: 'password' as const,
  hideInTable: true,
  hideInSearch: true,
  hideInDescriptions: true,
  fieldProps: { autoComplete: 'new-password' },
  formItemProps: { normalize: (value: string) => value || undefined, extra: <Kept flag={flag} /> },
});

/**
 * WeChat official accounts (docs/domain.md §6.3): API message/wechat-account, managed on the follower screen with the
 * menu's create, update and delete rights. The app secret and AES key are write-only.
 */
export const accountDescriptor = describeResource<WechatAccount, CreateWechatAccount, UpdateWechatAccount>(
  'message/follower',
  (column) => ({
    auditType: 'wechat_account',
    formLayout: 'DrawerForm',
    form: { create: FORM, update: FORM },
    columns: [
      column('keyword', { searchOnly: true }),
      column('name', { sorter: true, hideInSearch: true, required: true }),
      column('appId', { sorter: true, hideInSearch: true, required: true }),
      column('appSecret', secret('secretSet')),
      column('token', { hideInTable: true, hideInSearch: true }),
      column('aesKey', secret('aesKeySet')),
      column('accountType', {
        hideInSearch: true,
        options: [
          { value: 'service', labelId: 'message.wechat.account.accountType.service', color: 'green' },
          { value: 'subscription', labelId: 'message.wechat.account.accountType.subscription', color: 'blue' },
        ],
      }),
      column('primaryIndustry', { hideInTable: true, hideInSearch: true }),
      column('deputyIndustry', { hideInTable: true, hideInSearch: true }),
      column('tags', {
        hideInSearch: true,
        hideInForm: true,
        render: (_dom, row) => row.tags.map((t) => <Tag key={t.id}>{t.name}</Tag>),
      }),
      column('followerCount', { valueType: 'digit', hideInSearch: true, hideInForm: true }),
      column('lastSyncedAt', { valueType: 'dateTime', hideInSearch: true, hideInForm: true, sorter: true }),
      column('status', { dict: 'common_status', sorter: true }),
      column('remark', { valueType: 'textarea', hideInTable: true, hideInSearch: true }),
    ],
  }),
  { resource: 'message/wechat-account', titles: 'message.wechat.account' },
);

/** The accounts, in a drawer over the follower list. */
export default function AccountsDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const intl = useIntl();
  return (
    <Drawer
      open={open}
      onClose={onClose}
      width={960}
      title={intl.formatMessage({ id: 'message.wechat.accounts' })}
      destroyOnHidden
    >
      <div data-testid="wechat-accounts">
        <ResourceTable<WechatAccount>
          descriptor={accountDescriptor}
          createDefaults={{ accountType: 'service', status: 'enabled' }}
        />
      </div>
    </Drawer>
  );
}
