import { ProFormRadio, ProFormSelect, ProFormText } from '@ant-design/pro-components';
import { useIntl } from '@umijs/max';
import { useRef } from 'react';
import RecordModalForm from '@/components/RecordModalForm';
import { resourceService } from '@/services/resource';
import message from '@/utils/message';
import { accountChoices } from './accounts';
import {
  bindFollower,
  type Follower,
  PERSONS,
  remarkFollower,
  type SyncReport,
  syncFollowers,
  tagFollowers,
} from './descriptor';

const useT = () => {
  const intl = useIntl();
  return (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
};

/** The trainees, staff members or doctors whose name or number contains what is typed. */
const personChoices =
  (type: string) =>
  async ({ keyWords }: { keyWords?: string }) => {
    const { data } = await resourceService<{ id: string; name: string }>(`people/${type}`).list({
      pageSize: '20',
      ...(keyWords ? { keyword: keyWords } : {}),
    });
    return data.map((p) => ({ value: p.id, label: p.name }));
  };

/** Reads the followers of an account from WeChat: all of them again, or the new ones. */
export function SyncDialog({ open, onClose, onDone }: { open: boolean; onClose: () => void; onDone: () => void }) {
  const t = useT();
  const report = useRef<SyncReport>();
  return (
    <RecordModalForm<{ accountId: string; mode: 'full' | 'incremental' }>
      record={open ? { id: 'sync' } : undefined}
      title={t('message.follower.sync')}
      initialValues={{ mode: 'incremental' }}
      submitTestId="follower-sync-submit"
      save={async ({ accountId, mode }) => {
        report.current = await syncFollowers(accountId, mode);
      }}
      onClose={onClose}
      onSaved={() => {
        if (report.current) message.info(t('message.follower.sync.done', { ...report.current }));
        onDone();
      }}
    >
      <ProFormSelect
        name="accountId"
        label={t('message.follower.wechatAccountId')}
        rules={[{ required: true }]}
        request={accountChoices}
      />
      <ProFormRadio.Group
        name="mode"
        options={(['incremental', 'full'] as const).map((mode) => ({
          value: mode,
          label: t(`message.follower.sync.${mode}`),
        }))}
      />
    </RecordModalForm>
  );
}

/** Binds a follower to a trainee, staff member or doctor found by name. */
export function BindDialog({ row, onClose, onDone }: { row?: Follower; onClose: () => void; onDone: () => void }) {
  const t = useT();
  return (
    <RecordModalForm<{ personType: string; personId: string }>
      record={row}
      title={t('message.follower.bind.title', { name: row?.nickname ?? row?.openid ?? '' })}
      initialValues={{ personType: 'trainee' }}
      submitTestId="follower-bind-submit"
      save={({ personType, personId }, options) =>
        row ? bindFollower(row, { personType, personId }, options) : Promise.resolve()
      }
      onClose={onClose}
      onSaved={onDone}
    >
      <ProFormRadio.Group
        name="personType"
        label={t('message.follower.boundPersonType')}
        options={PERSONS.map((type) => ({ value: type, label: t(`message.follower.boundPersonType.${type}`) }))}
      />
      <ProFormSelect
        name="personId"
        label={t('message.follower.bind.person')}
        rules={[{ required: true }]}
        showSearch
        debounceTime={300}
        dependencies={['personType']}
        request={async ({ personType, keyWords }) => personChoices(personType ?? 'trainee')({ keyWords })}
      />
    </RecordModalForm>
  );
}

/** The follower's remark, set on WeChat too. */
export function RemarkDialog({ row, onClose, onDone }: { row?: Follower; onClose: () => void; onDone: () => void }) {
  const t = useT();
  return (
    <RecordModalForm<{ remark?: string }>
      record={row}
      title={t('message.follower.remark.title')}
      initialValues={{ remark: row?.remark ?? '' }}
      submitTestId="follower-remark-submit"
      save={({ remark }, options) => (row ? remarkFollower(row, remark ?? '', options) : Promise.resolve())}
      onClose={onClose}
      onSaved={onDone}
    >
      <ProFormText name="remark" label={t('message.follower.remark')} fieldProps={{ maxLength: 30 }} />
    </RecordModalForm>
  );
}

/** A WeChat tag added to (or removed from) the chosen followers of one account. */
export function TagDialog({ ids, onClose, onDone }: { ids?: string[]; onClose: () => void; onDone: () => void }) {
  const t = useT();
  const updated = useRef(0);
  return (
    <RecordModalForm<{ accountId: string; tagId: number; mode: 'add' | 'remove' }>
      record={ids && { id: 'tag' }}
      title={t('message.follower.tag.title', { count: ids?.length ?? 0 })}
      initialValues={{ mode: 'add' }}
      submitTestId="follower-tag-submit"
      save={async (values, options) => {
        updated.current = (await tagFollowers({ ...values, ids: ids ?? [] }, options)).updated;
      }}
      onClose={onClose}
      onSaved={() => {
        message.info(t('message.follower.tag.done', { updated: updated.current }));
        onDone();
      }}
    >
      <ProFormSelect
        name="accountId"
        label={t('message.follower.wechatAccountId')}
        rules={[{ required: true }]}
        request={accountChoices}
      />
      <ProFormSelect
        name="tagId"
        label={t('message.follower.tagId')}
        rules={[{ required: true }]}
        dependencies={['accountId']}
        request={async ({ accountId }) =>
          ((await accountChoices()).find((a) => a.value === accountId)?.tags ?? []).map((tag) => ({
            value: tag.id,
            label: tag.name,
          }))
        }
      />
      <ProFormRadio.Group
        name="mode"
        label={t('message.follower.tag.mode')}
        options={(['add', 'remove'] as const).map((mode) => ({
          value: mode,
          label: t(`message.follower.tag.${mode}`),
        }))}
      />
    </RecordModalForm>
  );
}
