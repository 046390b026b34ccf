import type { Organization } from '@server/modules/people/organization/organization.resource';
import type {
  AssignTutor,
  AuditTrainee,
  AuditTrainees,
  CreateTrainee,
  DecideBaseChange,
  RequestBaseChange,
  Trainee,
  TraineeBaseChange,
  TraineeCounts,
  TraineeHistory,
  TransitionTrainee,
  TransitionTrainees,
  UpdateTrainee,
} from '@server/modules/people/trainee/trainee.resource';
import type { TraineeField } from '@server/modules/people/trainee-field/trainee-field.resource';
import type { TraineeType } from '@server/modules/people/trainee-type/trainee-type.resource';
import type { Unit } from '@server/modules/people/unit/unit.resource';
import { describeResource } from '@/components/resource/types';
import { resourceService } from '@/services/resource';
import request, { type Options } from '@/utils/request';
import BaseSelect from './BaseSelect';

export type { Trainee, TraineeBaseChange, TraineeCounts, TraineeHistory, TraineeType };

export const trainees = resourceService<Trainee, CreateTrainee, UpdateTrainee>('people/trainee');
const base = '/api/people/trainee';

export const transitionTrainee = (row: Trainee, body: Omit<TransitionTrainee, 'version'>) =>
  trainees.action<Trainee>(row.id, 'transition', { ...body, version: row.version });
export const transitionTrainees = (body: TransitionTrainees) =>
  request.post<Trainee[]>(`${base}/transition`, { data: body });
export const submitTrainee = (row: Trainee) => trainees.action<Trainee>(row.id, 'submit', { version: row.version });
export const auditTrainee = (row: Trainee, body: Omit<AuditTrainee, 'version'>) =>
  trainees.action<Trainee>(row.id, 'audit', { ...body, version: row.version });
export const auditTrainees = (body: AuditTrainees) => request.post<Trainee[]>(`${base}/audit`, { data: body });
export const assignTutor = (body: AssignTutor) => request.post<Trainee[]>(`${base}/assign-tutor`, { data: body });
export const revealIdNo = (id: string) =>
  trainees.action<{ idNo: string | null }>(id, 'reveal-id').then(({ idNo }) => idNo);
export const fetchHistory = (id: string) => request.get<TraineeHistory[]>(`${base}/${id}/history`);
export const fetchBaseChanges = (id: string) => request.get<TraineeBaseChange[]>(`${base}/${id}/base-changes`);
export const requestBaseChange = (row: Trainee, body: Omit<RequestBaseChange, 'version'>, options?: Options) =>
  trainees.action<Trainee>(row.id, 'request-base-change', { ...body, version: row.version }, options);
export const decideBaseChange = (row: Trainee, body: Omit<DecideBaseChange, 'version'>) =>
  trainees.action<Trainee>(row.id, 'decide-base-change', { ...body, version: row.version });
/** The statuses in which the base changes by a request that is approved, not by an edit (the server's rule). */
export const IN_TRAINING: Trainee['status'][] = ['in_training', 'suspended', 'extended'];
export const fetchCounts = () => request.get<TraineeCounts>(`${base}/counts`);

/** The tenant's trainee types, in their order. */
export const fetchTypes = () =>
  request
    .get<{ data: TraineeType[] }>('/api/people/trainee-type', { params: { pageSize: '200', sort: 'sort,code' } })
    .then(({ data }) => data);

/** A type's active custom fields, in their order: what its trainees' form, list, search and sheets show. */
export const fetchFields = (traineeTypeId: string) =>
  request
    .get<{ data: TraineeField[] }>('/api/people/trainee-field', {
      params: { traineeTypeId, status: 'active', pageSize: '200', sort: 'sort' },
    })
    .then(({ data }) => data);

/** Organisations of one kind (training bases, specialty bases) as choices. */
export const orgChoices = (orgType: 'training_base' | 'specialty_base') =>
  request
    .get<{ data: Organization[] }>('/api/people/organization', { params: { orgType, pageSize: '200' } })
    .then(({ data }) => data.map((o) => ({ value: o.id, label: o.name })));

export const unitChoices = (keyWords?: string) =>
  request
    .get<{ data: Unit[] }>('/api/people/unit', { params: { pageSize: '50', ...(keyWords && { keyword: keyWords }) } })
    .then(({ data }) => data.map((u) => ({ value: u.id, label: u.name })));

/** The person's fields, then the training's: what the trainee form asks besides the type's own fields. */
export const PERSON_FIELDS = ['name', 'gender', 'idType', 'idNo', 'mobile', 'email', 'birthDate', 'education'] as const;
export const TRAINING_FIELDS = [
  'traineeNo',
  'trainingBaseId',
  'specialtyBaseId',
  'cohortYear',
  'trainingStart',
  'plannedEnd',
  'workUnitId',
  'tutorDoctorId',
  'recruitType',
  'graduateSchool',
  'graduateMajor',
  'remark',
] as const;

/**
 * Trainees (docs/domain.md §4.9): /trainee/list, API people/trainee, permission prefix trainee:trainee. The person's
 * ID number is shown masked; the type's custom fields join the columns, the search form and the form per type.
 */
export const traineeDescriptor = describeResource<Trainee, CreateTrainee, UpdateTrainee>(
  'trainee/trainee',
  (column) => ({
    auditType: 'trainee',
    profile: (row) => `/trainee/${row.id}/profile`,
    formLayout: 'DrawerForm',
    recordName: (row) => `${row.name} (${row.traineeNo})`,
    form: { create: [], update: [] },
    columns: [
      column('keyword', { titleId: 'people.keyword', searchOnly: true }),
      column('traineeNo', { sorter: true, hideInSearch: true, copyable: true }),
      column('name', { hideInSearch: true }),
      column('gender', { dict: 'gender', hideInSearch: true }),
      column('idNoMasked', { hideInSearch: true }),
      column('mobile', { hideInSearch: true }),
      column('traineeTypeName', { hideInSearch: true }),
      column('trainingBaseId', {
        hideInTable: true,
        hideInDescriptions: true,
        valueType: 'select',
        request: () => orgChoices('training_base'),
      }),
      column('trainingBaseName', { hideInSearch: true }),
      // the workspace's trainees by base open this list filtered by one
      column('specialtyBaseId', {
        hideInTable: true,
        hideInDescriptions: true,
        searchField: (props) => <BaseSelect load={() => orgChoices('specialty_base')} {...props} />,
      }),
      column('specialtyBaseName', { hideInSearch: true, hideInTable: true }),
      column('workUnitName', { hideInSearch: true, hideInTable: true }),
      column('tutorName', { hideInSearch: true }),
      // a year as written (a digit would read 2,025), its search a number box
      column('cohortYear', { sorter: true, valueType: 'digit', render: (_dom, row) => row.cohortYear ?? '-' }),
      column('trainingStart', { valueType: 'date', sorter: true, hideInSearch: true, hideInTable: true }),
      column('plannedEnd', { valueType: 'date', hideInSearch: true, hideInTable: true }),
      column('actualEnd', { valueType: 'date', hideInSearch: true, hideInTable: true }),
      column('recruitType', { dict: 'recruit_type', hideInSearch: true, hideInTable: true }),
      column('graduateSchool', { hideInSearch: true, hideInTable: true }),
      column('education', { dict: 'education', hideInSearch: true, hideInTable: true }),
      column('status', { dict: 'trainee_status', sorter: true }),
      column('registrationStatus', { dict: 'registration_status' }),
      column('createdAt', { key: 'createdAtRange', valueType: 'dateRange', searchOnly: true }),
      column('updatedAt', { valueType: 'dateTime', hideInSearch: true, sorter: true }),
      column('remark', { valueType: 'textarea', hideInTable: true, hideInSearch: true }),
    ],
  }),
  { resource: 'people/trainee', titles: 'people.trainee' },
);
