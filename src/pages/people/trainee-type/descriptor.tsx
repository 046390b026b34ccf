import type {
  CloneTraineeType,
  CreateTraineeType,
  TraineeType,
  UpdateTraineeType,
} from '@server/modules/people/trainee-type/trainee-type.resource';
import { describeResource } from '@/components/resource/types';
import { resourceService } from '@/services/resource';
import type { Options } from '@/utils/request';

export type { TraineeType };

export const traineeTypes = resourceService<TraineeType, CreateTraineeType, UpdateTraineeType>('people/trainee-type');

/** A copy of a type with its active fields, under a code and name of its own. */
export const cloneTraineeType = (id: string, body: CloneTraineeType, options?: Options) =>
  traineeTypes.action<TraineeType>(id, 'clone', body, options);

/** Every category, once (the type keeps the list whole). */
const CATEGORIES = Object.keys({
  residency: 1,
  specialist: 1,
  postgraduate: 1,
  refresher: 1,
  intern: 1,
  gp_assistant: 1,
  cme: 1,
  other: 1,
} satisfies Record<TraineeType['category'], 1>) as TraineeType['category'][];

const FORM: (keyof CreateTraineeType & keyof UpdateTraineeType & string)[] = [
  'code',
  'name',
  'category',
  'defaultTrainingYears',
  'traineeNoPattern',
  'requiresRegistrationAudit',
  'auditLevels',
  'color',
  'sort',
  'status',
  'remark',
];

/**
 * Trainee types (docs/domain.md §4.7): /user/trainee-type, API people/trainee-type, permission prefix
 * people:trainee-type. Unique code and name, the number pattern and the approving roles are the server's rules: a
 * refusal shows on its field.
 */
export const traineeTypeDescriptor = describeResource<TraineeType, CreateTraineeType, UpdateTraineeType>(
  'people/trainee-type',
  (column) => ({
    auditType: 'trainee_type',
    profile: (row) => `/user/trainee-type/${row.id}/detail`,
    formLayout: 'DrawerForm',
    form: { create: FORM, update: FORM },
    columns: [
      column('keyword', { titleId: 'people.keyword', searchOnly: true }),
      column('code', { sorter: true, hideInSearch: true, required: true }),
      column('name', { sorter: true, hideInSearch: true, required: true }),
      column('category', {
        sorter: true,
        required: true,
        options: CATEGORIES.map((value) => ({ value, labelId: `people.trainee-type.category.${value}` })),
      }),
      column('defaultTrainingYears', {
        valueType: 'digit',
        hideInSearch: true,
        fieldProps: { min: 0.5, max: 10, step: 0.5, precision: 1 },
      }),
      column('traineeNoPattern', {
        hideInSearch: true,
        hideInTable: true,
        fieldProps: { placeholder: 'R{yyyy}{seq:5}' },
      }),
      column('requiresRegistrationAudit', { dict: 'yes_no', valueType: 'switch', hideInSearch: true }),
      column('auditLevels', {
        hideInSearch: true,
        hideInTable: true,
        valueType: 'select',
        fieldProps: { mode: 'tags', tokenSeparators: [',', ' '] },
        render: (_dom, row) => row.auditLevels.join(' → ') || '-',
      }),
      column('color', { hideInSearch: true, hideInTable: true }),
      column('fieldCount', { hideInSearch: true, hideInForm: true }),
      column('sort', { valueType: 'digit', sorter: true, hideInSearch: true, fieldProps: { min: 0, precision: 0 } }),
      column('status', { dict: 'common_status', sorter: true, required: true }),
      column('updatedAt', { valueType: 'dateTime', hideInSearch: true, hideInForm: true, sorter: true }),
      column('remark', { valueType: 'textarea', hideInTable: true, hideInSearch: true }),
    ],
  }),
);
