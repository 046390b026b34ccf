import type { BusinessItem } from '@server/modules/dictionary/busiitem/busiitem.schema';
import type {
  CreateMessageTemplate,
  MessageTemplate,
  TemplatePreview,
  UpdateMessageTemplate,
} from '@server/modules/message/template/template.resource';
import { Tag, Tooltip } from 'antd';
import { describeResource } from '@/components/resource/types';
import { resourceService } from '@/services/resource';
import request, { type Options } from '@/utils/request';

export type { BusinessItem, CreateMessageTemplate, MessageTemplate, TemplatePreview, UpdateMessageTemplate };

export const CHANNELS: MessageTemplate['channel'][] = ['in_app', 'wechat_mp', 'sms', 'email'];
/** Channels whose messages have a title; channels sending through a provider's own template (its id required). */
export const TITLED: MessageTemplate['channel'][] = ['in_app', 'email'];
export const EXTERNAL: MessageTemplate['channel'][] = ['wechat_mp', 'sms'];

const base = '/api/message/template';
export const messageTemplates = resourceService<MessageTemplate, CreateMessageTemplate, UpdateMessageTemplate>(
  'message/template',
);

/** A template being edited rendered with sample values (refusals name the form's fields). */
export const previewDraft = (
  draft: { businessItemCode?: string | null; titleTemplate?: string | null; contentTemplate: string },
  params: Record<string, string>,
  options?: Options,
) => request.post<TemplatePreview>(`${base}/preview`, { ...options, data: { ...draft, params } });

/** The test send of the sending pipeline: the template to the signed-in user, with sample values. */
export const testSendPath = (id: string) => `${base}/${id}/test-send`;
export const testSend = (id: string, params: Record<string, string>) =>
  request.post<unknown>(testSendPath(id), { data: { params } });

/** Business items that notify, as choices (with their variables). */
export const notifiableItems = () =>
  request
    .get<{ data: BusinessItem[] }>('/api/dictionary/busiitem', {
      params: { notifiable: 'true', pageSize: '200', sort: 'code' },
    })
    .then(({ data }) => data);

const channelColor: Record<MessageTemplate['channel'], string> = {
  in_app: 'blue',
  wechat_mp: 'green',
  sms: 'orange',
  email: 'purple',
};

/** Message templates (docs/domain.md §6.1): /message/template, API message/template, permission message:template. */
export const messageTemplateDescriptor = describeResource<
  MessageTemplate,
  CreateMessageTemplate,
  UpdateMessageTemplate
>('message/template', (column) => ({
  auditType: 'message_template',
  recordName: (row) => row.name,
  formLayout: 'DrawerForm',
  // the platform's templates are every tenant's to use, only the platform's to change
  allows: (row, _action, access) => row.scope === 'tenant' || Boolean(access.platformOperator),
  lockReasonId: 'message.template.locked',
  form: {
    create: ['code', 'name', 'channel', 'businessItemCode', 'titleTemplate', 'contentTemplate', 'status', 'remark'],
    update: ['name', 'channel', 'businessItemCode', 'titleTemplate', 'contentTemplate', 'status', 'remark'],
  },
  columns: [
    column('keyword', { searchOnly: true }),
    column('code', { hideInSearch: true, sorter: true, copyable: true }),
    column('name', { hideInSearch: true, sorter: true }),
    column('channel', {
      options: CHANNELS.map((value) => ({
        value,
        labelId: `message.template.channel.${value}`,
        color: channelColor[value],
      })),
    }),
    column('businessItemCode', {
      valueType: 'select',
      request: () => notifiableItems().then((items) => items.map((b) => ({ value: b.code, label: b.name }))),
      render: (_dom, row) =>
        row.businessItemCode ? (
          <Tooltip title={row.businessItemCode}>{row.businessItemName ?? row.businessItemCode}</Tooltip>
        ) : (
          '-'
        ),
    }),
    column('params', {
      hideInSearch: true,
      hideInForm: true,
      render: (_dom, row) =>
        row.params.map((name) => (
          <Tag key={name} color={row.unknownParams.includes(name) ? 'warning' : undefined}>
            {name}
          </Tag>
        )),
    }),
    column('titleTemplate', { hideInSearch: true, hideInTable: true }),
    column('contentTemplate', { hideInSearch: true, hideInTable: true, valueType: 'textarea' }),
    column('externalTemplateId', { hideInSearch: true, hideInTable: true }),
    column('senderName', { hideInSearch: true, hideInTable: true }),
    column('status', { dict: 'common_status' }),
    column('scope', {
      hideInSearch: true,
      hideInForm: true,
      options: [
        { value: 'platform', labelId: 'message.template.scope.platform', color: 'blue' },
        { value: 'tenant', labelId: 'message.template.scope.tenant', color: 'green' },
      ],
    }),
    column('remark', { valueType: 'textarea', hideInSearch: true, hideInTable: true }),
    column('createdAt', { valueType: 'dateTime', hideInSearch: true, hideInForm: true, sorter: true }),
  ],
}));
