import { z } from '@hono/zod-openapi';
import type { ColumnType } from 'kysely';
import { sql } from 'kysely';
import { Version } from '../../../core/column-bounds';
import { ref, refBy } from '../../../core/references';
import { defineResource } from '../../../core/resource/define-resource';
import { ID_PATTERN, Id } from '../../../core/resource/id-param';
import { createdAtFilter } from '../../../core/resource/list-query';
import { columnsOf, tableRepository } from '../../../core/resource/table.repository';
import { field, recordRow, requestBody, updateBody } from '../../../core/schema-kit';
import type { Audited, Id as IdColumn, Nullable, Ref } from '../../../db/types';

/**
 * Qualifications (docs/domain.md §4.11): a person's certificates, licences and titles, filed under one of their
 * records (expert, doctor, staff, trainee), reviewed (every decision kept) and expiring.
 */
/** What the files a qualification holds are to the file list. */
export const ATTACHMENT = 'qualification.attachment';
export const OWNER_TYPES = ['expert', 'doctor', 'staff', 'trainee'] as const;
export type OwnerType = (typeof OWNER_TYPES)[number];
export const REVIEW_STATUSES = [
  'draft',
  'submitted',
  'in_review',
  'approved',
  'rejected',
  'returned',
  'expired',
  'revoked',
] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];
/** The states its holder may still edit (an edit of a rejected or returned record makes it a draft again). */
export const EDITABLE: readonly ReviewStatus[] = ['draft', 'returned', 'rejected'];
/** The states a record may be deleted in: never while it is being reviewed or holds. */
export const REMOVABLE: readonly ReviewStatus[] = ['draft', 'returned', 'rejected', 'expired', 'revoked'];
export const DECISIONS = ['approve', 'reject', 'return'] as const;

interface QualificationTable extends Audited {
  id: IdColumn;
  tenant_id: Ref;
  person_id: Ref;
  owner_type: OwnerType;
  owner_id: Ref;
  qualification_type: string;
  cert_no: string;
  issuer: Nullable<string>;
  issued_on: Nullable<string>;
  valid_from: Nullable<string>;
  valid_until: Nullable<string>;
  level: Nullable<string>;
  attachment_file_ids: ColumnType<string[], string[] | undefined, string[]>;
  review_status: ColumnType<ReviewStatus, ReviewStatus | undefined, ReviewStatus>;
  current_review_level: ColumnType<number, number | undefined, number>;
  reviewed_by: Nullable<Ref>;
  reviewed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  review_comment: Nullable<string>;
  remark: Nullable<string>;
}
interface QualificationReviewTable {
  id: IdColumn;
  tenant_id: Ref;
  qualification_id: Ref;
  level: ColumnType<number, number | undefined, number>;
  decision: 'submit' | 'approve' | 'reject' | 'return' | 'revoke' | 'expire';
  from_state: string;
  to_state: string;
  comment: Nullable<string>;
  created_at: ColumnType<Date, Date | undefined, never>;
  created_by: Nullable<Ref>;
}
declare module '../../../db/types' {
  interface DB {
    qualification: QualificationTable;
    qualification_review: QualificationReviewTable;
  }
}

export const Qualification = recordRow({
  personId: z.string(),
  ownerType: z.enum(OWNER_TYPES),
  ownerId: z.string(),
  ownerName: z.string().openapi({ description: "The person's name" }),
  qualificationType: z.string().openapi({ description: 'Dictionary `qualification_type`' }),
  certNo: z.string(),
  issuer: z.string().nullable(),
  issuedOn: z.string().nullable(),
  validFrom: z.string().nullable(),
  validUntil: z.string().nullable().openapi({ description: 'None: permanent' }),
  level: z.string().nullable(),
  reviewStatus: z.enum(REVIEW_STATUSES),
  reviewedByName: z.string().nullable(),
  reviewedAt: z.string().nullable(),
  reviewComment: z.string().nullable(),
  attachmentFileIds: z
    .array(z.string())
    .openapi({ description: 'Scans of the certificate (file ids); one at least to submit' }),
  remark: z.string().nullable(),
}).openapi('Qualification');
export type Qualification = z.infer<typeof Qualification>;

const fields = {
  qualificationType: z
    .string()
    .trim()
    .min(1)
    .max(50)
    .openapi({ description: 'Dictionary `qualification_type`', example: 'practice_license' }),
  certNo: z
    .string()
    .trim()
    .toUpperCase()
    .min(1)
    .max(60)
    .regex(/^[A-Z0-9()_/-]+$/)
    .openapi({ example: '110110000000001', description: 'Unique for its type' }),
  issuer: field.optionalText(100),
  issuedOn: z.iso.date().nullable().optional(),
  validFrom: z.iso.date().nullable().optional(),
  validUntil: z.iso.date().nullable().optional().openapi({ description: 'None: permanent; not before `validFrom`' }),
  level: field.optionalText(50),
  attachmentFileIds: z.array(ref('file')).max(20).optional().openapi({
    description: "Files uploaded with purpose `attachment` (or already this record's); the rest are let go",
  }),
  remark: field.remark,
};

export const CreateQualification = requestBody('CreateQualification', {
  ownerType: z.enum(OWNER_TYPES),
  ownerId: refBy('ownerType', { expert: 'expert', doctor: 'doctor', staff: 'staff', trainee: 'trainee' }).openapi({
    description: 'The expert, doctor, staff member or trainee it is filed under',
  }),
  ...fields,
});
export type CreateQualification = z.infer<typeof CreateQualification>;
export const UpdateQualification = updateBody('UpdateQualification', {
  ...fields,
  qualificationType: fields.qualificationType.optional(),
  certNo: fields.certNo.optional(),
});
export type UpdateQualification = z.infer<typeof UpdateQualification>;

const comment = z.string().trim().max(500);
export const ReviewQualification = requestBody('ReviewQualification', {
  decision: z.enum(DECISIONS),
  comment: comment.optional().openapi({ description: 'Required to reject or return' }),
  version: Version,
});
export type ReviewQualification = z.infer<typeof ReviewQualification>;
export const ApproveQualifications = requestBody('ApproveQualifications', {
  ids: z.array(Id).min(1).max(500),
  comment: comment.optional(),
});
export type ApproveQualifications = z.infer<typeof ApproveQualifications>;
export const SubmitQualification = requestBody('SubmitQualification', { version: Version });
export const RevokeQualification = requestBody('RevokeQualification', {
  comment: comment.min(1),
  version: Version,
});
export type RevokeQualification = z.infer<typeof RevokeQualification>;

export const QualificationReview = z
  .object({
    id: z.string(),
    decision: z.enum(['submit', 'approve', 'reject', 'return', 'revoke', 'expire']),
    fromState: z.string(),
    toState: z.string(),
    comment: z.string().nullable(),
    createdAt: z.string(),
    createdByName: z.string().nullable().openapi({ description: 'None: the daily expiry job' }),
  })
  .openapi('QualificationReview');
export type QualificationReview = z.infer<typeof QualificationReview>;

export const qualificationTable = tableRepository<'qualification', Qualification>({
  name: 'qualification',
  columns: columnsOf(Qualification, { except: ['ownerName', 'reviewedByName', 'reviewedAt'] }),
  tenantOwned: true,
  computed: {
    ownerName: sql`(SELECT p.name FROM person p WHERE p.id = qualification.person_id)`,
    reviewedByName: sql`(SELECT u.display_name FROM admin_user u WHERE u.id = qualification.reviewed_by)`,
    reviewedAt: sql`to_char(qualification.reviewed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
  },
});

export const qualificationResource = defineResource({
  path: 'people/qualification',
  type: 'qualification',
  permission: 'expert:qualification',
  schemas: { row: Qualification, create: CreateQualification, update: UpdateQualification },
  list: {
    sort: {
      certNo: 'cert_no',
      validUntil: 'valid_until',
      reviewStatus: 'review_status',
      createdAt: 'created_at',
      updatedAt: 'updated_at',
    },
    defaultSort: '-createdAt',
    filters: {
      keyword: { kind: 'keyword', columns: [] },
      ownerType: { kind: 'in', column: 'owner_type', values: OWNER_TYPES },
      ownerId: { kind: 'eq', column: 'owner_id', pattern: ID_PATTERN },
      personId: { kind: 'eq', column: 'person_id', pattern: ID_PATTERN },
      qualificationType: { kind: 'eq', column: 'qualification_type', pattern: /^[\w-]{1,50}$/ },
      reviewStatus: { kind: 'in', column: 'review_status', values: REVIEW_STATUSES },
      validUntil: { kind: 'dateRange', column: 'valid_until' },
      // approved and ending within the reminder days of the settings (the store's)
      expiring: { kind: 'eq', pattern: /^true$/ },
      createdAt: createdAtFilter,
    },
  },
  label: (row) => `${row.ownerName} · ${row.certNo}`,
  columns: [
    { key: 'ownerName' },
    { key: 'ownerType' },
    { key: 'qualificationType' },
    { key: 'certNo' },
    { key: 'issuer' },
    { key: 'issuedOn' },
    { key: 'validFrom' },
    { key: 'validUntil' },
    { key: 'level' },
    { key: 'reviewStatus' },
    { key: 'reviewedByName' },
    { key: 'reviewedAt' },
    { key: 'createdAt' },
  ],
});
