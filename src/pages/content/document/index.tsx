import '@/pages/content/catalogue';
import { ProFormRadio, ProFormSelect } from '@ant-design/pro-components';
import { history, useIntl } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Button } from 'antd';
import { useRef, useState } from 'react';
import ActionLink from '@/components/ActionLink';
import RecordModalForm from '@/components/RecordModalForm';
import EmptyState from '@/components/resource/EmptyState';
import type { TableActions } from '@/components/resource/ListTable';
import ResourceTable from '@/components/resource/ResourceTable';
import { baseChoices } from '@/pages/content/base';
import message from '@/utils/message';
import { ignoreShownError } from '@/utils/request';
import {
  bulkMove,
  bulkTag,
  type Document,
  documentDescriptor,
  documentTagChoices,
  newVersion,
  offlineDocument,
  publishDocument,
} from './descriptor';

type Bulk = { kind: 'tag' | 'move'; ids: string[] };

/** Tags added to or removed from the chosen documents, or the library they move to; all of them or none. */
function BulkDialog({ bulk, onClose, onDone }: { bulk?: Bulk; onClose: () => void; onDone: (n: number) => void }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const updated = useRef(0);
  return (
    <RecordModalForm<{ tagIds?: string[]; mode?: 'add' | 'remove'; baseId?: string }>
      record={bulk && { id: bulk.kind }}
      title={bulk?.kind === 'move' ? t('content.document.bulkMove') : t('content.document.bulkTag')}
      initialValues={{ mode: 'add' }}
      submitTestId="document-bulk-submit"
      save={async (values) => {
        if (!bulk) return;
        const answer =
          bulk.kind === 'move'
            ? await bulkMove(bulk.ids, values.baseId ?? '')
            : await bulkTag(bulk.ids, values.tagIds ?? [], values.mode ?? 'add');
        updated.current = answer.updated;
      }}
      onClose={onClose}
      onSaved={() => onDone(updated.current)}
    >
      {bulk?.kind === 'move' ? (
        <ProFormSelect
          name="baseId"
          label={t('content.document.baseId')}
          rules={[{ required: true }]}
          request={baseChoices}
        />
      ) : (
        <>
          <ProFormRadio.Group
            name="mode"
            options={[
              { value: 'add', label: t('content.document.bulkTag') },
              { value: 'remove', label: t('content.document.bulkUntag') },
            ]}
          />
          <ProFormSelect
            name="tagIds"
            label={t('content.document.tagIds')}
            mode="multiple"
            showSearch
            rules={[{ required: true }]}
            request={documentTagChoices}
          />
        </>
      )}
    </RecordModalForm>
  );
}

/**
 * /doc/list: the tenant's documents by a keyword in their title, summary or text (the matches marked), library, type,
 * tag and status; published, taken offline, given a new version; tagged and moved in bulk.
 */
export default function DocumentListPage() {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, number>) => intl.formatMessage({ id }, values);
  const actionRef = useRef<TableActions>();
  const [bulk, setBulk] = useState<Bulk>();
  // no library yet: a document has nowhere to go, so the empty list says to create a library first
  const { data: bases } = useRequest(baseChoices, { onError: ignoreShownError });
  const reload = () => actionRef.current?.reload();
  const done = (id: string) => () => {
    message.success(t(id));
    reload();
  };
  return (
    <div data-testid="content-document">
      <ResourceTable<Document>
        descriptor={documentDescriptor}
        actionRef={actionRef}
        createDefaults={{ allowDownload: true, isPinned: false }}
        emptyState={() =>
          bases?.length === 0 && (
            <EmptyState
              testId="document-no-base"
              text={t('content.document.noBase')}
              action={
                <Button type="primary" data-testid="document-no-base-create" onClick={() => history.push('/doc/base')}>
                  {t('content.document.noBase.go')}
                </Button>
              }
            />
          )
        }
        rowActions={(row, { can }) => [
          ['draft', 'offline'].includes(row.status) && can('doc:document:publish') && (
            <ActionLink
              key="publish"
              data-testid="document-publish"
              onClick={() => publishDocument(row).then(done('content.document.published'), ignoreShownError)}
            >
              {t('content.document.publish')}
            </ActionLink>
          ),
          row.status === 'published' && can('doc:document:publish') && (
            <ActionLink
              key="offline"
              data-testid="document-offline"
              onClick={() => offlineDocument(row).then(done('content.document.offlined'), ignoreShownError)}
            >
              {t('content.document.offline')}
            </ActionLink>
          ),
          ['published', 'offline'].includes(row.status) && can('doc:document:new-version') && (
            <ActionLink
              key="new-version"
              data-testid="document-new-version"
              onClick={() =>
                newVersion(row).then((draft) => {
                  message.success(t('content.document.newVersionMade'));
                  history.push(`/doc/${draft.id}/profile`);
                }, ignoreShownError)
              }
            >
              {t('content.document.newVersion')}
            </ActionLink>
          ),
        ]}
        batchActions={(ids, { can }) =>
          can('doc:document:update')
            ? [
                <Button
                  key="tag"
                  size="small"
                  data-testid="document-bulk-tag"
                  onClick={() => setBulk({ kind: 'tag', ids })}
                >
                  {t('content.document.bulkTag')}
                </Button>,
                <Button
                  key="move"
                  size="small"
                  data-testid="document-bulk-move"
                  onClick={() => setBulk({ kind: 'move', ids })}
                >
                  {t('content.document.bulkMove')}
                </Button>,
              ]
            : []
        }
      />
      <BulkDialog
        bulk={bulk}
        onClose={() => setBulk(undefined)}
        onDone={(count) => {
          message.info(t('content.document.bulkDone', { count }));
          setBulk(undefined);
          actionRef.current?.clearSelected?.();
          reload();
        }}
      />
    </div>
  );
}
