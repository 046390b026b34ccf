import { useIntl } from '@umijs/max';
import { type ButtonProps, Modal } from 'antd';
import { useState } from 'react';
import ResourceTable from '@/components/resource/ResourceTable';
import type { RowDescriptor } from '@/components/resource/types';
import { type Question, questionDescriptor } from '../../question/descriptor';

/** The bank's list as a picker: its filters and columns, no writes; only ready questions may be placed. */
const pickerDescriptor: RowDescriptor<Question> = {
  ...(questionDescriptor as unknown as RowDescriptor<Question>),
  actions: {
    create: 'assess:paper:nothing' as never,
    update: 'assess:paper:nothing' as never,
    delete: 'assess:paper:nothing' as never,
    import: 'assess:paper:nothing' as never,
    export: 'assess:paper:nothing' as never,
  },
  profile: undefined,
  formPage: undefined,
};

/**
 * Questions of the bank chosen for a section: searched with the bank's filters (ready ones by default, of the
 * section's type and format when it has one; "not used in the last N days" among them), the ones the paper already
 * holds left unchecked-able. `onPick` gets the chosen rows.
 */
export default function QuestionPicker({
  open,
  placed,
  only,
  onClose,
  onPick,
}: {
  open: boolean;
  placed: string[];
  /** The section's type and format: the only questions it may hold. */
  only?: { questionType?: Question['questionType'] | null; medicalFormat?: Question['medicalFormat'] };
  onClose: () => void;
  onPick: (rows: Question[]) => void;
}) {
  const intl = useIntl();
  const [chosen, setChosen] = useState<Question[]>([]);
  return (
    <Modal
      open={open}
      width={1200}
      title={intl.formatMessage({ id: 'assess.paper.pick' })}
      onCancel={onClose}
      destroyOnHidden
      okButtonProps={{ disabled: chosen.length === 0, 'data-testid': 'picker-add' } as ButtonProps}
      okText={intl.formatMessage({ id: 'assess.paper.pick.add' }, { count: chosen.length })}
      onOk={() => {
        onPick(chosen);
        setChosen([]);
      }}
    >
      <div data-testid="question-picker">
        <ResourceTable<Question>
          descriptor={pickerDescriptor}
          params={{
            status: 'ready',
            ...(only?.questionType && { questionType: only.questionType }),
            ...(only?.medicalFormat && { medicalFormat: only.medicalFormat }),
          }}
          tableProps={{
            rowSelection: {
              preserveSelectedRowKeys: true,
              selectedRowKeys: chosen.map((q) => q.id),
              getCheckboxProps: (row: Question) => ({ disabled: placed.includes(row.id) }),
              onChange: (_keys: React.Key[], rows: Question[]) => setChosen(rows.filter(Boolean)),
            },
            toolbar: [],
            batchActions: () => null,
          }}
        />
      </div>
    </Modal>
  );
}
