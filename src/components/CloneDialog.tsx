import { ProFormText } from '@ant-design/pro-components';
import { useIntl } from '@umijs/max';
import { useRef } from 'react';
import RecordModalForm from '@/components/RecordModalForm';
import type { Options } from '@/utils/request';

interface Cloned {
  id: string;
  code: string;
  title: string;
}

/**
 * A copy of a record (a paper, a course) as a new draft, under the code and title given; the code proposed is the
 * record's with `-2`. `testId` names its code field (`<testId>-code`) and its submit button (`<testId>-submit`).
 */
export default function CloneDialog<R extends Cloned>({
  record,
  titleId,
  labels,
  maxCode,
  testId,
  clone,
  onClose,
  onDone,
}: {
  record?: R;
  titleId: string;
  /** i18n ids of the code and title fields. */
  labels: { code: string; title: string };
  maxCode: number;
  testId: string;
  clone: (
    id: string,
    values: { code: string; title: string },
    options: Pick<Options, 'placeFieldErrors'>,
  ) => Promise<R>;
  onClose: () => void;
  onDone: (copy: R) => void;
}) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const made = useRef<R>();
  return (
    <RecordModalForm<{ code: string; title: string }>
      record={record && { id: `clone:${record.id}` }}
      title={t(titleId)}
      initialValues={{ code: record ? `${record.code}-2`.slice(0, maxCode) : '', title: record?.title ?? '' }}
      submitTestId={`${testId}-submit`}
      save={async (values, options) => {
        if (!record) return;
        made.current = await clone(record.id, values, options);
      }}
      onClose={onClose}
      onSaved={() => made.current && onDone(made.current)}
    >
      <ProFormText
        name="code"
        label={t(labels.code)}
        rules={[{ required: true }, { max: maxCode }]}
        fieldProps={{ 'data-testid': `${testId}-code` } as object}
      />
      <ProFormText name="title" label={t(labels.title)} rules={[{ required: true }, { max: 200 }]} />
    </RecordModalForm>
  );
}
