import { AppError, invalidField } from '../../../core/errors';
import type { Lang } from '../../../core/i18n';
import type { ResourceStore, WriteContext } from '../../../core/resource/resource';
import { createResourceService, type ResourceDeps } from '../../../core/resource/resource.service';
import type { Tx } from '../../../core/tenancy';
import {
  type CloneTraineeType,
  type CreateTraineeType,
  type TraineeType,
  traineeTypeResource,
  type UpdateTraineeType,
} from './trainee-type.resource';

const texts = {
  'zh-CN': {
    codeTaken: '该编码已被其他学员类型使用',
    nameTaken: '已有同名学员类型',
    noRole: (codes: string) => `角色不存在：${codes}`,
    levelsRequired: '需要注册审核时至少指定一级审核角色',
  },
  'en-US': {
    codeTaken: 'is used by another trainee type',
    nameTaken: 'another trainee type has this name',
    noRole: (codes: string) => `names roles that do not exist: ${codes}`,
    levelsRequired: 'name at least one approving role when registrations are audited',
  },
};

/** What a clone copies of each active field (the rest is the copy's own: its type, author, status, version). */
const COPIED_FIELD_COLUMNS = [
  'key',
  'label',
  'label_en',
  'group_name',
  'field_type',
  'dict_type_code',
  'options',
  'required',
  'unique_scope',
  'locked',
  'visibility',
  'show_in_list',
  'filterable',
  'exportable',
  'importable',
  'default_value',
  'placeholder',
  'help_text',
  'validation',
  'sort',
] as const;

/**
 * Trainee types' rules (docs/domain.md §4.7): code and name unique in the tenant (checked first, so the answer names
 * the field); a type whose registrations are audited names its approving roles, each a role of the tenant; clone
 * copies a type with its active fields; a type with trainees is not deleted.
 */
export function createTraineeTypeService(deps: ResourceDeps) {
  const { store: plain, repository } = traineeTypeResource;

  async function checkUnique(tx: Tx, input: { code?: string; name?: string }, self: string | undefined, lang: Lang) {
    for (const key of ['code', 'name'] as const) {
      const value = input[key];
      if (value === undefined) continue;
      const other = await repository.findBy(tx, key, value);
      if (other && other.id !== self) throw invalidField(key, texts[lang][key === 'code' ? 'codeTaken' : 'nameTaken']);
    }
  }

  async function checkAudit(tx: Tx, audited: boolean, levels: readonly string[], lang: Lang) {
    if (audited && levels.length === 0) throw invalidField('auditLevels', texts[lang].levelsRequired);
    if (levels.length === 0) return;
    const found = await tx
      .selectFrom('role')
      .select('code')
      .where('code', 'in', [...levels])
      .where('deleted_at', 'is', null)
      .execute();
    const missing = levels.filter((level) => !found.some((r) => r.code === level));
    if (missing.length) throw invalidField('auditLevels', texts[lang].noRole(missing.join(', ')));
  }

  const store: ResourceStore<TraineeType, CreateTraineeType, UpdateTraineeType> = {
    ...plain,
    async create(tx, input, ctx) {
      await checkUnique(tx, input, undefined, ctx.lang);
      await checkAudit(tx, input.requiresRegistrationAudit ?? false, input.auditLevels ?? [], ctx.lang);
      return plain.create(tx, input, ctx);
    },
    async update(tx, current, input, ctx) {
      await checkUnique(tx, input, current.id, ctx.lang);
      await checkAudit(
        tx,
        input.requiresRegistrationAudit ?? current.requiresRegistrationAudit,
        input.auditLevels ?? current.auditLevels,
        ctx.lang,
      );
      return plain.update(tx, current, input, ctx);
    },
    async remove(tx, rows, ctx) {
      const used = await tx
        .selectFrom('trainee')
        .select('id')
        .where(
          'trainee_type_id',
          'in',
          rows.map((r) => r.id),
        )
        .executeTakeFirst();
      if (used) throw new AppError('traineeType.inUse');
      return plain.remove(tx, rows, ctx);
    },
  };

  const resource = createResourceService(traineeTypeResource, store, deps);

  /** A new type like `id`, with its own code and name, and copies of its active fields in their order. */
  const clone = (ctx: WriteContext, id: string, input: CloneTraineeType) =>
    resource.act(
      ctx,
      id,
      'clone',
      async (tx, source) => {
        await checkUnique(tx, input, undefined, ctx.lang);
        const { id: _, createdAt, updatedAt, version, fieldCount, ...rest } = source;
        const copy = await plain.create(tx, { ...rest, ...input }, ctx);
        await tx
          .insertInto('trainee_type_field')
          .columns(['tenant_id', 'trainee_type_id', 'created_by', ...COPIED_FIELD_COLUMNS])
          .expression((eb) =>
            eb
              .selectFrom('trainee_type_field')
              .select((s) => [
                'tenant_id',
                s.val(copy.id).as('trainee_type_id'),
                s.val(ctx.actorId).as('created_by'),
                ...COPIED_FIELD_COLUMNS,
              ])
              .where('trainee_type_id', '=', source.id)
              .where('status', '=', 'active'),
          )
          .execute();
        return (await repository.find(tx, copy.id)) ?? copy;
      },
      () => `← ${id}`,
    );

  return { resource, clone };
}

export type TraineeTypeService = ReturnType<typeof createTraineeTypeService>;
