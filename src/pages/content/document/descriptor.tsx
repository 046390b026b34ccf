import type {
  CreateDocument,
  Document,
  DocumentVersion,
  UpdateDocument,
} from '@server/modules/content/document/document.resource';
import { Link } from '@umijs/max';
import { DatePicker, Space, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import AttachmentsField from '@/components/file/AttachmentsField';
import { describeResource } from '@/components/resource/types';
import { LazyRichTextEditor } from '@/components/richText';
import { baseChoices } from '@/pages/content/base';
import { tagOptions } from '@/pages/content/tag';
import { resourceService } from '@/services/resource';
import request from '@/utils/request';

export type { Document, DocumentVersion };

export const documents = resourceService<Document, CreateDocument, UpdateDocument>('content/document');

const path = '/api/content/document';
export const publishDocument = (row: Document) =>
  documents.action<Document>(row.id, 'publish', { version: row.version });
export const offlineDocument = (row: Document) =>
  documents.action<Document>(row.id, 'offline', { version: row.version });
export const newVersion = (row: Document) =>
  documents.action<Document>(row.id, 'new-version', { version: row.version });
export const fetchVersions = (id: string) => request.get<DocumentVersion[]>(`${path}/${id}/versions`);
export const bulkTag = (ids: string[], tagIds: string[], mode: 'add' | 'remove') =>
  request.post<{ updated: number }>(`${path}/bulk-tag`, { data: { ids, tagIds, mode } });
export const bulkMove = (ids: string[], baseId: string) =>
  request.post<{ updated: number }>(`${path}/bulk-move`, { data: { ids, baseId } });
export const documentTagChoices = ({ keyWords }: { keyWords?: string }) => tagOptions('document', keyWords);

const STATUS_COLOURS: Record<Document['status'], string> = {
  draft: 'default',
  published: 'success',
  offline: 'warning',
  archived: 'default',
};
const FORM = [
  'baseId',
  'title',
  'docType',
  'docNumber',
  'issuer',
  'versionLabel',
  'tagIds',
  'summary',
  'contentHtml',
  'attachmentFileIds',
  'publishAt',
  'effectiveFrom',
  'effectiveTo',
  'isPinned',
  'allowDownload',
  'remark',
] as const;

/** A moment picked in local time, kept as the instant the API takes (ISO 8601 with its zone). */
function InstantPicker({ value, onChange }: { value?: string | null; onChange?: (value: string | null) => void }) {
  return (
    <DatePicker
      showTime
      value={value ? dayjs(value) : null}
      onChange={(picked) => onChange?.(picked ? picked.toISOString() : null)}
      data-testid="document-publish-at"
    />
  );
}

/** HTML the server made (the text escaped, its matches in `<mark>`). */
const Marked = ({ html }: { html: string }) => (
  // biome-ignore lint/security/noDangerouslySetInnerHtml: the server escapes the text and adds only <mark>
  <span dangerouslySetInnerHTML={{ __html: html }} />
);

/**
 * Documents (docs/domain.md §5.2): /doc/list, API content/document, permission prefix doc:document; profile
 * /doc/:id/profile with the text, files and versions. Edited while a draft or offline; a published one gets a new version.
 */
export const documentDescriptor = describeResource<Document, CreateDocument, UpdateDocument>(
  'doc/document',
  (column) => ({
    auditType: 'document',
    profile: (row) => `/doc/${row.id}/profile`,
    recordName: (row) => row.title,
    formLayout: 'DrawerForm',
    allows: (row, action) =>
      action === 'delete' ? row.status === 'draft' : row.status === 'draft' || row.status === 'offline',
    lockReasonId: { update: 'content.document.locked', delete: 'content.document.locked.delete' },
    form: { create: [...FORM], update: [...FORM] },
    columns: [
      column('keyword', { searchOnly: true }),
      column('title', {
        hideInSearch: true,
        sorter: true,
        required: true,
        render: (_dom, row) => (
          <Space direction="vertical" size={0}>
            <Link to={`/doc/${row.id}/profile`}>
              {row.highlight ? <Marked html={row.highlight.title} /> : row.title}
            </Link>
            {row.highlight?.snippet && (
              <Typography.Text type="secondary" data-testid="document-snippet">
                <Marked html={row.highlight.snippet} />
              </Typography.Text>
            )}
          </Space>
        ),
      }),
      column('baseId', {
        valueType: 'select',
        hideInTable: true,
        hideInDescriptions: true,
        request: baseChoices,
        required: true,
      }),
      column('baseName', { hideInSearch: true, hideInForm: true }),
      column('docType', { dict: 'doc_type' }),
      column('docNumber', { hideInSearch: true }),
      column('issuer', { hideInSearch: true, hideInTable: true }),
      column('versionLabel', { hideInSearch: true }),
      column('tagIds', {
        valueType: 'select',
        hideInTable: true,
        hideInSearch: true,
        hideInDescriptions: true,
        fieldProps: { mode: 'multiple', showSearch: true },
        request: documentTagChoices,
      }),
      column('tagId', {
        valueType: 'select',
        searchOnly: true,
        fieldProps: { showSearch: true },
        request: documentTagChoices,
      }),
      column('tagNames', {
        hideInSearch: true,
        hideInForm: true,
        render: (_dom, row) => row.tagNames.map((name) => <Tag key={name}>{name}</Tag>),
      }),
      column('status', {
        hideInForm: true,
        options: (Object.keys(STATUS_COLOURS) as Document['status'][]).map((value) => ({
          value,
          labelId: `content.document.status.${value}`,
          color: STATUS_COLOURS[value],
        })),
      }),
      column('summary', { valueType: 'textarea', hideInTable: true, hideInSearch: true }),
      column('contentHtml', {
        hideInTable: true,
        hideInSearch: true,
        hideInDescriptions: true,
        renderFormItem: (schema) => <LazyRichTextEditor {...(schema.fieldProps as object)} />,
      }),
      column('attachmentFileIds', {
        hideInTable: true,
        hideInSearch: true,
        hideInDescriptions: true,
        renderFormItem: (schema) => (
          <AttachmentsField {...(schema.fieldProps as object)} attachments="/api/content/document" />
        ),
      }),
      column('publishAt', {
        valueType: 'dateTime',
        hideInTable: true,
        hideInSearch: true,
        renderFormItem: (schema) => <InstantPicker {...(schema.fieldProps as object)} />,
      }),
      column('publishedAt', { valueType: 'dateTime', hideInSearch: true, hideInForm: true, sorter: true }),
      column('effectiveFrom', { valueType: 'date', hideInTable: true, hideInSearch: true }),
      column('effectiveTo', { valueType: 'date', hideInTable: true, hideInSearch: true }),
      column('isPinned', { valueType: 'switch', hideInTable: true, hideInSearch: true }),
      column('allowDownload', { valueType: 'switch', hideInTable: true, hideInSearch: true }),
      column('viewCount', { hideInSearch: true, hideInForm: true, sorter: true }),
      column('remark', { valueType: 'textarea', hideInTable: true, hideInSearch: true }),
      column('createdAt', { valueType: 'dateTime', hideInSearch: true, hideInForm: true, sorter: true }),
    ],
  }),
  { resource: 'content/document', titles: 'content.document' },
);
