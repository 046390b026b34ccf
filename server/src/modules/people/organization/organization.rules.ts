/**
 * The organisation types (docs/domain.md §4.1) and where each may sit: hospital → training base → specialty base →
 * department → teaching group, with offices (the education office, 科教科) beside them. `null` means a root of the
 * tenant's tree. A proposal of this project (the domain names the types and says the matrix is enforced, not its
 * cells); written once here, read by create, update (a change of type) and move.
 */
export const ORG_TYPES = [
  'hospital',
  'training_base',
  'specialty_base',
  'department',
  'teaching_group',
  'office',
] as const;
export type OrgType = (typeof ORG_TYPES)[number];

export const ALLOWED_PARENTS: Record<OrgType, readonly (OrgType | null)[]> = {
  hospital: [null],
  training_base: [null, 'hospital'],
  specialty_base: ['training_base'],
  department: ['hospital', 'specialty_base', 'department'],
  teaching_group: ['department', 'specialty_base'],
  office: ['hospital', 'training_base'],
};

/** Whether a node of `type` may sit under a node of `parent` (null: at the top). */
export const mayParent = (type: OrgType, parent: OrgType | null): boolean => ALLOWED_PARENTS[type].includes(parent);

export const BASE_LEVELS = ['national', 'provincial', 'institutional'] as const;

/** The materialised path of a node: its ancestors' ids and its own, `/1/7/42/`. */
export const pathOf = (parentPath: string | null, id: string) => `${parentPath ?? '/'}${id}/`;
