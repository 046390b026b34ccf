import '@/pages/people/catalogue';
import type { ProColumns } from '@ant-design/pro-components';
import type { TraineeField } from '@server/modules/people/trainee-field/trainee-field.resource';
import { getLocale, useIntl, useSearchParams } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Button, Segmented } from 'antd';
import { lazy, useMemo, useRef, useState } from 'react';
import { dictEnum } from '@/components/resource/dict';
import type { TableActions } from '@/components/resource/ListTable';
import ResourceTable from '@/components/resource/ResourceTable';
import type { ResourceService } from '@/services/resource';
import { ignoreShownError } from '@/utils/request';
import { fetchFields, fetchTypes, type Trainee, traineeDescriptor, trainees } from './descriptor';
import TraineeActionDialog, { type Acting } from './TraineeDialogs';
import TraineeForm from './TraineeForm';

// not part of the list's first paint: it loads the first time it opens
const TraineeImport = lazy(() => import('./TraineeImport'));

/** What may be done to the trainees chosen in the list, each to whoever holds its code. */
const BATCH = [
  { action: 'transition', code: 'trainee:trainee:change-status', label: 'people.trainee.batchTransition' },
  { action: 'audit', code: 'trainee:trainee:audit', label: 'people.trainee.batchAudit' },
  { action: 'tutor', code: 'trainee:trainee:assign-tutor', label: 'people.trainee.assignTutor' },
] as const;

/** The search form's name of a custom field's filter; the list's query sends them together as `custom`. */
const FILTER = 'cf.';

/** A custom filter's text (a form value made a string) as the value the field stores. */
function typed(field: TraineeField | undefined, text: string): unknown {
  switch (field?.fieldType) {
    case 'number':
    case 'integer':
      return Number(text);
    case 'switch':
      return text === 'true';
    case 'multi_select':
    case 'checkbox':
    case 'dict_multi':
      return text.split(',');
    default:
      return text;
  }
}

/** The list's query with the custom filters folded into `custom` (a JSON object the values must contain). */
function withCustom(query: Record<string, string>, fields: TraineeField[]): Record<string, string> {
  const rest: Record<string, string> = {};
  const custom: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(query)) {
    if (!name.startsWith(FILTER)) rest[name] = value;
    else {
      const key = name.slice(FILTER.length);
      custom[key] = typed(
        fields.find((f) => f.key === key),
        value,
      );
    }
  }
  return Object.keys(custom).length ? { ...rest, custom: JSON.stringify(custom) } : rest;
}

/** A custom field as a column: shown if it says so, searchable if filterable, its choices as the search's options. */
function columnOf(field: TraineeField): ProColumns<Trainee> {
  const options = field.dictTypeCode
    ? [...dictEnum(field.dictTypeCode)].map(([value, entry]) => ({ value, label: entry.text }))
    : (field.options ?? []).map((o) => ({ value: o.value, label: o.label }));
  const choice = options.length > 0 || field.fieldType === 'switch';
  return {
    title: (getLocale() === 'en-US' && field.labelEn) || field.label,
    dataIndex: ['customFields', field.key],
    key: `${FILTER}${field.key}`,
    hideInTable: !field.showInList,
    hideInSearch: !field.filterable,
    valueType: choice ? 'select' : 'text',
    fieldProps: field.fieldType === 'switch' ? { options: [{ value: 'true' }, { value: 'false' }] } : { options },
    render: (_dom, row) => {
      const value = row.customFields[field.key];
      if (value === undefined || value === null) return '-';
      const label = (v: unknown) => options.find((o) => o.value === v)?.label ?? String(v);
      return Array.isArray(value) ? value.map(label).join(', ') : label(value);
    },
    search: { transform: (value: unknown) => ({ [`${FILTER}${field.key}`]: value }) },
  };
}

/**
 * /trainee/list: trainees of every type, or of one chosen above the list, whose custom fields then join the columns
 * and the search form; found by name, pinyin initials, mobile, number or whole ID number; created and edited in a form
 * with the type's own fields; moved through their lifecycle and registration audit one by one or chosen together.
 */
export default function TraineePage() {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const [searchParams] = useSearchParams();
  const [typeId, setTypeId] = useState<string>(searchParams.get('traineeTypeId') ?? '');
  const actionRef = useRef<TableActions>();
  const [acting, setActing] = useState<Acting>();
  const { data: types = [] } = useRequest(fetchTypes, { onError: ignoreShownError });
  const { data: fields = [] } = useRequest(() => (typeId ? fetchFields(typeId) : Promise.resolve([])), {
    refreshDeps: [typeId],
    onError: ignoreShownError,
  });
  // the list and export fold the custom filters into one; an import is made for a type (TraineeImport)
  const service = useMemo(
    () =>
      ({
        ...trainees,
        list: (query: Record<string, string>) => trainees.list(withCustom(query, fields)),
        exportFile: (query: Record<string, string>) => trainees.exportFile(withCustom(query, fields)),
      }) as ResourceService<Trainee, never, never>,
    [fields],
  );
  const importOpened = useRef(false);
  const done = () => {
    actionRef.current?.clearSelected?.();
    actionRef.current?.reload();
  };
  return (
    <div data-testid="trainee-list">
      <Segmented
        style={{ marginBottom: 16 }}
        data-testid="trainee-type-filter"
        value={typeId}
        onChange={(value) => setTypeId(String(value))}
        options={[
          { value: '', label: t('people.trainee.allTypes') },
          ...types.map((type) => ({ value: type.id, label: type.name })),
        ]}
      />
      <ResourceTable<Trainee>
        key={typeId}
        descriptor={traineeDescriptor}
        service={service}
        actionRef={actionRef}
        params={typeId ? { traineeTypeId: typeId } : undefined}
        extraColumns={fields.map(columnOf)}
        createDefaults={typeId ? { traineeTypeId: typeId } : undefined}
        renderForm={(props) => <TraineeForm {...props} />}
        renderImport={(props) => {
          importOpened.current ||= props.open;
          return importOpened.current && <TraineeImport {...props} types={types} typeId={typeId} />;
        }}
        batchActions={(ids, { can }) =>
          BATCH.map(
            ({ action, code, label }) =>
              can(code) && (
                <Button
                  key={action}
                  size="small"
                  data-testid={`batch-${action}`}
                  onClick={() => setActing({ action, ids })}
                >
                  {t(label)}
                </Button>
              ),
          )
        }
      />
      <TraineeActionDialog
        acting={acting}
        onClose={() => setActing(undefined)}
        onDone={() => {
          setActing(undefined);
          done();
        }}
      />
    </div>
  );
}
