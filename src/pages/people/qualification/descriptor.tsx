import type {
  CreateQualification,
  Qualification,
  QualificationReview,
  UpdateQualification,
} from '@server/modules/people/qualification/qualification.resource';
import AttachmentsField from '@/components/file/AttachmentsField';
import { describeResource } from '@/components/resource/types';
import { resourceService } from '@/services/resource';
import request from '@/utils/request';
import OwnerPicker from './OwnerPicker';

export type { Qualification, QualificationReview };

export const qualifications = resourceService<Qualification, CreateQualification, UpdateQualification>(
  'people/qualification',
);

const path = '/api/people/qualification';
export const submitQualification = (row: Qualification) =>
  qualifications.action<Qualification>(row.id, 'submit', { version: row.version });
export const reviewQualification = (row: Qualification, body: { decision: string; comment?: string }) =>
  qualifications.action<Qualification>(row.id, 'review', { ...body, version: row.version });
export const revokeQualification = (row: Qualification, comment: string) =>
  qualifications.action<Qualification>(row.id, 'revoke', { comment, version: row.version });
export const approveQualifications = (ids: string[], comment?: string) =>
  request.post<Qualification[]>(`${path}/approve`, { data: { ids, ...(comment && { comment }) } });
export const fetchReviews = (id: string) => request.get<QualificationReview[]>(`${path}/${id}/reviews`);

/** The states the holder may still edit (the server's rule): an edit makes the record a draft again. */
export const EDITABLE: Qualification['reviewStatus'][] = ['draft', 'returned', 'rejected'];
/** The states a decision is awaited in. */
export const AWAITING: Qualification['reviewStatus'][] = ['submitted', 'in_review'];
const REMOVABLE: Qualification['reviewStatus'][] = [...EDITABLE, 'expired', 'revoked'];

const OWN = [
  'qualificationType',
  'certNo',
  'issuer',
  'issuedOn',
  'validFrom',
  'validUntil',
  'level',
  'attachmentFileIds',
  'remark',
] as const;

/**
 * Qualifications (docs/domain.md §4.11): /expert/qualifications, and on the profiles of those who hold them; API
 * people/qualification, permission prefix expert:qualification. Filed under a record of the person (expert, doctor,
 * staff member, trainee); edited while a draft or sent back, then submitted, reviewed, revoked; expired by the daily job.
 */
export const qualificationDescriptor = describeResource<Qualification, CreateQualification, UpdateQualification>(
  'expert/qualification',
  (column) => ({
    auditType: 'qualification',
    formLayout: 'ModalForm',
    recordName: (row) => `${row.ownerName} · ${row.certNo}`,
    allows: (row, action) => (action === 'update' ? EDITABLE : REMOVABLE).includes(row.reviewStatus),
    form: { create: ['ownerType', 'ownerId', ...OWN], update: [...OWN] },
    columns: [
      column('keyword', { titleId: 'people.qualification.keyword', searchOnly: true }),
      column('ownerName', { hideInSearch: true, hideInForm: true }),
      column('ownerType', { dict: 'qualification_owner', required: true, formDisabled: (row) => Boolean(row) }),
      column('ownerId', {
        hideInTable: true,
        hideInSearch: true,
        hideInDescriptions: true,
        required: true,
        renderFormItem: (schema) => <OwnerPicker {...(schema.fieldProps as object)} />,
      }),
      column('qualificationType', { dict: 'qualification_type', required: true }),
      column('certNo', { hideInSearch: true, required: true, copyable: true, sorter: true }),
      column('issuer', { hideInSearch: true, hideInTable: true }),
      column('issuedOn', { valueType: 'date', hideInSearch: true, hideInTable: true }),
      column('validFrom', { valueType: 'date', hideInSearch: true, hideInTable: true }),
      column('validUntil', { valueType: 'date', hideInSearch: true, sorter: true }),
      column('level', { hideInSearch: true, hideInTable: true }),
      column('attachmentFileIds', {
        hideInTable: true,
        hideInSearch: true,
        hideInDescriptions: true,
        renderFormItem: (schema) => (
          <AttachmentsField {...(schema.fieldProps as object)} attachments="/api/people/qualification" />
        ),
      }),
      // the row's state, kept beside its actions in the list
      column('reviewStatus', { dict: 'qualification_status', sorter: true, hideInForm: true, fixed: 'right' }),
      column('expiring', {
        titleId: 'people.qualification.expiring',
        searchOnly: true,
        valueType: 'select',
        options: [{ value: 'true', labelId: 'people.qualification.expiring' }],
      }),
      column('reviewedByName', { hideInSearch: true, hideInForm: true, hideInTable: true }),
      column('reviewedAt', { valueType: 'dateTime', hideInSearch: true, hideInForm: true, hideInTable: true }),
      column('reviewComment', { hideInSearch: true, hideInForm: true, hideInTable: true }),
      column('remark', { valueType: 'textarea', hideInTable: true, hideInSearch: true }),
      column('updatedAt', { valueType: 'dateTime', hideInSearch: true, hideInForm: true, sorter: true }),
    ],
  }),
  { resource: 'people/qualification', titles: 'people.qualification' },
);
