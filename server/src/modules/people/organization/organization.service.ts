import { sql } from 'kysely';
import { AppError, invalidField, versionConflict } from '../../../core/errors';
import type { Lang } from '../../../core/i18n';
import type { ResourceStore, WriteContext } from '../../../core/resource/resource';
import { createResourceService, type ResourceDeps } from '../../../core/resource/resource.service';
import type { Tx } from '../../../core/tenancy';
import { blockingDependent } from './organization.dependents';
import {
  type CreateOrganization,
  type MoveOrganization,
  type Organization,
  type OrganizationNode,
  organizationResource,
  type UpdateOrganization,
} from './organization.resource';
import { ALLOWED_PARENTS, mayParent, type OrgType, pathOf } from './organization.rules';

const typeNames: Record<Lang, Record<OrgType | 'top', string>> = {
  'zh-CN': {
    hospital: '医院',
    training_base: '培训基地',
    specialty_base: '专业基地',
    department: '科室',
    teaching_group: '教学组',
    office: '职能部门',
    top: '顶层',
  },
  'en-US': {
    hospital: 'hospital',
    training_base: 'training base',
    specialty_base: 'specialty base',
    department: 'department',
    teaching_group: 'teaching group',
    office: 'office',
    top: 'the top level',
  },
};

/** `a department`, `an office`, `the top level`. */
const article = (name: string) =>
  name === typeNames['en-US'].top ? name : `${/^[aeiou]/.test(name) ? 'an' : 'a'} ${name}`;

const texts = {
  'zh-CN': {
    noParent: '上级组织不存在',
    notUnder: (type: string, parent: string, allowed: string) => `${type}不能放在${parent}下（只能放在${allowed}下）`,
    childNotUnder: (child: string, type: string) => `已有下级${child}不能放在${type}下`,
    intoItself: '不能移到自身或其下级组织下',
    codeTaken: '该编码已被其他组织使用',
    nameTaken: '同一上级下已有同名组织',
    specialtyRequired: '专业基地须填写专业',
    or: '或',
  },
  'en-US': {
    noParent: 'is not an existing organisation',
    notUnder: (type: string, parent: string, allowed: string) =>
      `${article(type)} cannot sit under ${article(parent)} (only under ${allowed})`,
    childNotUnder: (child: string, type: string) => `its subordinate ${child} cannot sit under ${article(type)}`,
    intoItself: 'cannot move an organisation under itself or one of its subordinates',
    codeTaken: 'is used by another organisation',
    nameTaken: 'another organisation under the same parent has this name',
    specialtyRequired: 'is required for a specialty base',
    or: ' or ',
  },
};

/** Why a node of `type` may not sit under `parent` (null: the top), as a sentence; undefined when it may. */
function placementError(type: OrgType, parent: OrgType | null, lang: Lang): string | undefined {
  if (mayParent(type, parent)) return undefined;
  const name = (t: OrgType | null) => typeNames[lang][t ?? 'top'];
  const allowed = ALLOWED_PARENTS[type]
    .map((t) => (lang === 'en-US' ? article(name(t)) : name(t)))
    .join(texts[lang].or);
  return texts[lang].notUnder(name(type), name(parent), allowed);
}

/**
 * The organisation tree's rules (docs/domain.md §4.1): the allowed-parent matrix on create, on a change of type and
 * on move; codes unique in the tenant and names among siblings (checked first, so the answer names the field); the
 * materialised path kept for the whole subtree on move; delete refused while a node has children or dependents.
 */
export function createOrganizationService(deps: ResourceDeps) {
  const { store: plain, repository } = organizationResource;

  const find = (tx: Tx, id: string) => repository.find(tx, id);

  async function checkCode(tx: Tx, code: string, self: string | undefined, lang: Lang) {
    const other = await repository.findBy(tx, 'code', code);
    if (other && other.id !== self) throw invalidField('code', texts[lang].codeTaken);
  }

  async function checkName(
    tx: Tx,
    parentId: string | null,
    name: string,
    self: string | undefined,
    field: string,
    lang: Lang,
  ) {
    const sibling = await tx
      .selectFrom('organization')
      .select('id')
      .where(parentId === null ? sql<boolean>`parent_id IS NULL` : sql<boolean>`parent_id = ${parentId}`)
      .where('name', '=', name)
      .executeTakeFirst();
    if (sibling && sibling.id !== self) throw invalidField(field, texts[lang].nameTaken);
  }

  function checkSpecialty(type: OrgType, specialtyCode: string | null | undefined, lang: Lang) {
    if (type === 'specialty_base' && !specialtyCode) throw invalidField('specialtyCode', texts[lang].specialtyRequired);
  }

  /** The types of a node's children, to keep them valid when the node's type changes. */
  async function childTypes(tx: Tx, id: string): Promise<OrgType[]> {
    const rows = await tx
      .selectFrom('organization')
      .select('org_type')
      .distinct()
      .where('parent_id', '=', id)
      .execute();
    return rows.map((r) => r.org_type);
  }

  const store: ResourceStore<Organization, CreateOrganization, UpdateOrganization> = {
    ...plain,
    async create(tx, input, ctx) {
      const parentId = input.parentId ?? null;
      const parent = parentId ? await find(tx, parentId) : undefined;
      if (parentId && !parent) throw invalidField('parentId', texts[ctx.lang].noParent);
      const misplaced = placementError(input.orgType, parent?.orgType ?? null, ctx.lang);
      if (misplaced) throw invalidField('orgType', misplaced);
      checkSpecialty(input.orgType, input.specialtyCode, ctx.lang);
      await checkCode(tx, input.code, undefined, ctx.lang);
      await checkName(tx, parentId, input.name, undefined, 'name', ctx.lang);
      // the path ends with the node's own id, known once it is inserted
      const values = { ...input, parentId, path: parent?.path ?? '/', depth: parent ? parent.depth + 1 : 0 };
      const inserted = await plain.create(tx, values as CreateOrganization, ctx);
      const path = pathOf(parent?.path ?? null, inserted.id);
      await tx.updateTable('organization').set({ path }).where('id', '=', inserted.id).execute();
      return { ...inserted, path };
    },

    async update(tx, current, input, ctx) {
      const type = input.orgType ?? current.orgType;
      if (type !== current.orgType) {
        const parent = current.parentId ? await find(tx, current.parentId) : undefined;
        const misplaced = placementError(type, parent?.orgType ?? null, ctx.lang);
        if (misplaced) throw invalidField('orgType', misplaced);
        const blocked = (await childTypes(tx, current.id)).find((child) => !mayParent(child, type));
        if (blocked)
          throw invalidField(
            'orgType',
            texts[ctx.lang].childNotUnder(typeNames[ctx.lang][blocked], typeNames[ctx.lang][type]),
          );
      }
      checkSpecialty(type, input.specialtyCode === undefined ? current.specialtyCode : input.specialtyCode, ctx.lang);
      if (input.code !== undefined && input.code !== current.code)
        await checkCode(tx, input.code, current.id, ctx.lang);
      if (input.name !== undefined && input.name !== current.name)
        await checkName(tx, current.parentId, input.name, current.id, 'name', ctx.lang);
      return plain.update(tx, current, input, ctx);
    },

    async remove(tx, rows, ctx) {
      const ids = new Set(rows.map((r) => r.id));
      if ((await repository.childKeys(tx, [...ids])).some((child) => !ids.has(String(child))))
        throw new AppError('organization.hasChildren');
      const dependent = await blockingDependent(tx, [...ids]);
      if (dependent) throw new AppError(dependent);
      // leaves first: a parent goes after the children deleted with it
      for (const row of [...rows].sort((a, b) => b.depth - a.depth)) await plain.remove(tx, [row], ctx);
    },

    /** A sheet names the parent by its code; an update through the sheet keeps the node where it is (move does that). */
    async fromImport(tx, record, existing, ctx, earlierKeys) {
      const { parentCode, ...fields } = record as Record<string, unknown> & { parentCode?: string };
      if (existing) return { ...fields, version: existing.version } as UpdateOrganization;
      const parent = parentCode ? await repository.findBy(tx, 'code', parentCode) : undefined;
      // a parent made by an earlier row of the same file exists by the time this row is written
      if (parentCode && !parent && !earlierKeys?.has(parentCode))
        throw invalidField('parentCode', texts[ctx.lang].noParent);
      if (parent) {
        const misplaced = placementError(fields.orgType as OrgType, parent.orgType, ctx.lang);
        if (misplaced) throw invalidField('orgType', misplaced);
      }
      return { ...fields, parentId: parent?.id ?? null } as CreateOrganization;
    },
  };

  const resource = createResourceService(organizationResource, store, deps);

  /**
   * Moves a node and its subtree under `parentId` (null: to the top): not under itself or a subordinate, only where
   * the matrix allows its type, not beside a sibling of the same name. One statement re-paths the whole subtree.
   */
  const move = (ctx: WriteContext, id: string, input: MoveOrganization) =>
    resource.act(ctx, id, 'move', async (tx, row) => {
      if (row.version !== input.version) throw versionConflict();
      const t = texts[ctx.lang];
      const parent = input.parentId ? await find(tx, input.parentId) : undefined;
      if (input.parentId && !parent) throw invalidField('parentId', t.noParent);
      if (parent?.path.startsWith(row.path)) throw invalidField('parentId', t.intoItself);
      const misplaced = placementError(row.orgType, parent?.orgType ?? null, ctx.lang);
      if (misplaced) throw invalidField('parentId', misplaced);
      const parentId = parent?.id ?? null;
      if (parentId !== row.parentId) await checkName(tx, parentId, row.name, row.id, 'parentId', ctx.lang);
      const path = pathOf(parent?.path ?? null, row.id);
      const shift = (parent ? parent.depth + 1 : 0) - row.depth;
      await sql`UPDATE organization
        SET path = ${path} || substr(path, ${row.path.length + 1}), depth = depth + ${shift}
        WHERE path LIKE ${`${row.path}%`} AND id <> ${row.id}`.execute(tx);
      const moved = await repository.update(tx, row.id, { parentId, path, depth: row.depth + shift }, ctx, row.version);
      if (!moved) throw versionConflict();
      return moved;
    });

  return {
    resource,
    move,
    /** One level of the tree: the roots, or the children of `parentId`, each saying whether it has children. */
    tree: (tenantId: string, parentId?: string, status?: string): Promise<OrganizationNode[]> =>
      deps.tenancy.inTenant(tenantId, (tx) => repository.children(tx, parentId, status)),
  };
}

export type OrganizationService = ReturnType<typeof createOrganizationService>;
