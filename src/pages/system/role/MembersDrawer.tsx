import { useIntl } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Button, Drawer, Empty, Popconfirm, Select, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import ActionLink from '@/components/ActionLink';
import { dictEnum } from '@/components/resource/dict';
import message from '@/utils/message';
import { ignoreShownError } from '@/utils/request';
import type { Role } from './descriptor';
import { addMembers, adminUserOptions, fetchMembers, type RoleMember, removeMember } from './service';

interface Props {
  role?: Role;
  /** The user holds system:role:assign-user. */
  editable: boolean;
  onClose: () => void;
}

/** Accounts holding the role: list, add some from the tenant's accounts, remove one (confirmed). */
export default function MembersDrawer({ role, editable, onClose }: Props) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string>) => intl.formatMessage({ id }, values);
  const [picked, setPicked] = useState<string[]>([]);
  const [keyword, setKeyword] = useState('');
  const {
    data: members,
    loading,
    mutate,
  } = useRequest(() => (role ? fetchMembers(role.id) : Promise.resolve([])), {
    refreshDeps: [role?.id],
    onError: ignoreShownError,
  });
  const { data: options, loading: searching } = useRequest(
    () => (editable && role ? adminUserOptions(keyword) : Promise.resolve([])),
    {
      refreshDeps: [keyword, editable, role?.id],
      debounceWait: 300,
      onError: ignoreShownError,
    },
  );
  const held = new Set((members ?? []).map((m) => m.id));

  const add = async () => {
    if (!role || !picked.length) return;
    const next = await addMembers(role.id, picked).catch(() => undefined);
    if (!next) return;
    mutate(next);
    setPicked([]);
    message.success(t('resource.saved'));
  };
  const remove = async (member: RoleMember) => {
    if (!role) return;
    const done = await removeMember(role.id, member.id).then(
      () => true,
      () => false,
    );
    if (done) mutate((members ?? []).filter((m) => m.id !== member.id));
  };

  return (
    <Drawer
      open={Boolean(role)}
      width={640}
      title={t('system.role.members.title', { name: role?.name ?? '' })}
      onClose={onClose}
      destroyOnHidden
    >
      <div data-testid="role-members">
        {editable && (
          <Space.Compact style={{ width: '100%', marginBottom: 16 }}>
            <Select
              mode="multiple"
              style={{ width: '100%' }}
              value={picked}
              onChange={setPicked}
              showSearch
              filterOption={false}
              onSearch={setKeyword}
              loading={searching}
              placeholder={t('system.role.members.pick')}
              options={(options ?? []).filter((o) => !held.has(o.value))}
              data-testid="members-select"
            />
            <Button type="primary" disabled={!picked.length} onClick={add} data-testid="members-add">
              {t('system.role.members.add')}
            </Button>
          </Space.Compact>
        )}
        <Table<RoleMember>
          size="small"
          rowKey="id"
          loading={loading}
          dataSource={members ?? []}
          pagination={{ pageSize: 10, hideOnSinglePage: true }}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} /> }}
          columns={[
            { title: t('system.admin.userName'), dataIndex: 'userName' },
            { title: t('system.admin.displayName'), dataIndex: 'displayName' },
            {
              title: t('system.admin.status'),
              dataIndex: 'status',
              render: (s: string) => {
                const entry = dictEnum('admin_user_status', undefined, intl.locale).get(s);
                return <Tag color={entry?.color}>{entry?.text ?? s}</Tag>;
              },
            },
            ...(editable
              ? [
                  {
                    title: t('resource.actions'),
                    key: 'remove',
                    render: (_: unknown, member: RoleMember) => (
                      <Popconfirm
                        title={t('system.role.members.removeConfirm', { name: member.displayName })}
                        onConfirm={() => remove(member)}
                        okButtonProps={{ 'data-testid': 'member-remove-ok' } as never}
                      >
                        <ActionLink data-testid="member-remove">{t('system.role.members.remove')}</ActionLink>
                      </Popconfirm>
                    ),
                  },
                ]
              : []),
          ]}
        />
      </div>
    </Drawer>
  );
}
