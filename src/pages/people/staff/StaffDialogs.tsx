import {
  ProFormDatePicker,
  ProFormItem,
  ProFormSelect,
  ProFormText,
  ProFormTextArea,
} from '@ant-design/pro-components';
import { useIntl } from '@umijs/max';
import dayjs from 'dayjs';
import RecordModalForm from '@/components/RecordModalForm';
import { dictEnum } from '@/components/resource/dict';
import OrganizationPicker from '@/pages/people/organization/OrganizationPicker';
import { fetchRoleOptions } from '@/pages/system/admin/service';
import request from '@/utils/request';
import { changeStaffStatus, createStaffAccount, linkStaffAccount, type Staff, transferStaff } from './descriptor';

export type StaffAction = 'transfer' | 'status' | 'account' | 'link';

/** Where a staff member's status may go (the server's rule too): leaving is for good. */
const NEXT: Record<Staff['status'], Staff['status'][]> = {
  active: ['on_leave', 'left'],
  on_leave: ['active', 'left'],
  left: [],
};

const accounts = (keyword: string) =>
  request
    .get<{ data: { id: string; userName: string; displayName: string }[] }>('/api/system/admin', {
      params: { pageSize: '20', ...(keyword && { keyword }) },
    })
    .then(({ data }) => data.map((u) => ({ value: u.id, label: `${u.displayName} (${u.userName})` })));

interface Props {
  action?: StaffAction;
  row: Staff;
  onClose: () => void;
  onDone: () => void;
  /** A new account's temporary password, to be shown once. */
  onPassword: (password: string) => void;
}

/**
 * One step of a staff member's record: a transfer or a change of status (why and from when, kept in the history), or
 * a console account made (its temporary password shown once) or linked. The record's version guards each.
 */
export default function StaffDialogs({ action, row, onClose, onDone, onPassword }: Props) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const statuses = dictEnum('staff_status');
  const step = action === 'transfer' || action === 'status';
  const titles: Record<StaffAction, string> = {
    transfer: 'people.staff.transfer',
    status: 'people.staff.changeStatus',
    account: 'people.staff.account.create',
    link: 'people.staff.account.link',
  };
  return (
    <RecordModalForm<Record<string, unknown>>
      record={action && { id: `${action}:${row.id}` }}
      title={action ? t(titles[action]) : ''}
      initialValues={step ? { effectiveDate: dayjs().format('YYYY-MM-DD') } : {}}
      submitTestId="staff-action-submit"
      save={async (values) => {
        // the form's fields are the body's: the server checks them (a refusal shows on its field)
        const body = values as never;
        if (action === 'transfer') return transferStaff(row, body);
        if (action === 'status') return changeStaffStatus(row, body);
        if (action === 'link') return linkStaffAccount(row, body);
        const made = await createStaffAccount(row, body);
        onPassword(made.temporaryPassword);
        return made;
      }}
      onClose={onClose}
      onSaved={onDone}
    >
      {action === 'transfer' && (
        <ProFormItem name="orgId" label={t('people.staff.transfer.to')} rules={[{ required: true }]}>
          <OrganizationPicker data-testid="staff-transfer-org" />
        </ProFormItem>
      )}
      {action === 'status' && (
        <ProFormSelect
          name="to"
          label={t('people.staff.changeStatus.to')}
          options={NEXT[row.status].map((value) => ({ value, label: statuses.get(value)?.text ?? value }))}
          rules={[{ required: true }]}
          fieldProps={{ 'data-testid': 'staff-status-to' } as object}
        />
      )}
      {step && (
        <>
          <ProFormTextArea
            name="reason"
            label={t('people.staff.reason')}
            rules={[{ required: true, max: 500 }]}
            fieldProps={{ 'data-testid': 'staff-reason' } as object}
          />
          <ProFormDatePicker
            name="effectiveDate"
            label={t('people.staff.effectiveDate')}
            rules={[{ required: true }]}
          />
        </>
      )}
      {action === 'account' && (
        <>
          <ProFormText
            name="userName"
            label={t('people.staff.account.userName')}
            rules={[{ required: true, min: 2, max: 50 }]}
            fieldProps={{ 'data-testid': 'staff-account-username' }}
          />
          <ProFormSelect
            name="roleIds"
            label={t('people.staff.account.roleIds')}
            mode="multiple"
            placeholder={t('people.staff.account.defaultRole')}
            request={() => fetchRoleOptions().then((roles) => roles.map((r) => ({ value: r.id, label: r.name })))}
            fieldProps={{ 'data-testid': 'staff-account-roles' } as object}
          />
        </>
      )}
      {action === 'link' && (
        <ProFormSelect
          name="adminUserId"
          label={t('people.staff.account.adminUserId')}
          showSearch
          rules={[{ required: true }]}
          debounceTime={300}
          request={({ keyWords }) => accounts(keyWords ?? '')}
          fieldProps={{ filterOption: false, 'data-testid': 'staff-account-link' } as object}
        />
      )}
    </RecordModalForm>
  );
}
