import { AppError, invalidField, versionConflict } from '../../../core/errors';
import type { Lang } from '../../../core/i18n';
import type { ResourceStore, WriteContext } from '../../../core/resource/resource';
import { createResourceService, type ResourceDeps } from '../../../core/resource/resource.service';
import type { Tx } from '../../../core/tenancy';
import {
  type CreateDoctorType,
  type DoctorType,
  doctorTypeResource,
  type MoveDoctors,
  type UpdateDoctorType,
} from './doctor-type.resource';

const texts = {
  'zh-CN': {
    codeTaken: '该编码已被其他医生类型使用',
    nameTaken: '已有同名医生类型',
    noTarget: '医生类型不存在',
    sameType: '须为另一医生类型',
  },
  'en-US': {
    codeTaken: 'is used by another doctor type',
    nameTaken: 'another doctor type has this name',
    noTarget: 'is not an existing doctor type',
    sameType: 'must be another doctor type',
  },
};

/**
 * Doctor types' rules (docs/domain.md §4.5): code and name unique in the tenant (checked first, so the answer names
 * the field); a type doctors hold is not deleted, but its doctors may first be moved to another type.
 */
export function createDoctorTypeService(deps: ResourceDeps) {
  const { store: plain, repository } = doctorTypeResource;

  async function checkUnique(tx: Tx, input: { code?: string; name?: string }, self: string | undefined, lang: Lang) {
    for (const key of ['code', 'name'] as const) {
      const value = input[key];
      if (value === undefined) continue;
      const other = await repository.findBy(tx, key, value);
      if (other && other.id !== self) throw invalidField(key, texts[lang][key === 'code' ? 'codeTaken' : 'nameTaken']);
    }
  }

  const store: ResourceStore<DoctorType, CreateDoctorType, UpdateDoctorType> = {
    ...plain,
    async create(tx, input, ctx) {
      await checkUnique(tx, input, undefined, ctx.lang);
      return plain.create(tx, input, ctx);
    },
    async update(tx, current, input, ctx) {
      await checkUnique(tx, input, current.id, ctx.lang);
      return plain.update(tx, current, input, ctx);
    },
    async remove(tx, rows, ctx) {
      const used = await tx
        .selectFrom('doctor')
        .select('id')
        .where(
          'doctor_type_id',
          'in',
          rows.map((r) => r.id),
        )
        .executeTakeFirst();
      if (used) throw new AppError('doctorType.inUse');
      return plain.remove(tx, rows, ctx);
    },
  };

  const resource = createResourceService(doctorTypeResource, store, deps);

  /** Every doctor of the type moves to `targetTypeId`, all at once (the doctors' audit rows say so). */
  const moveDoctors = (ctx: WriteContext, id: string, { targetTypeId, version }: MoveDoctors) => {
    let moved = 0;
    return resource.act(
      ctx,
      id,
      'update',
      async (tx, row) => {
        if (row.version !== version) throw versionConflict();
        if (targetTypeId === id) throw invalidField('targetTypeId', texts[ctx.lang].sameType);
        if (!(await repository.find(tx, targetTypeId))) throw invalidField('targetTypeId', texts[ctx.lang].noTarget);
        const doctors = await tx
          .updateTable('doctor')
          .set({ doctor_type_id: targetTypeId, updated_at: ctx.now, updated_by: ctx.actorId })
          .where('doctor_type_id', '=', id)
          .returning('id')
          .execute();
        moved = doctors.length;
        await repository.update(tx, id, {}, ctx);
        return (await repository.find(tx, id)) as DoctorType;
      },
      () => `${moved} → ${targetTypeId}`,
    );
  };

  return { resource, moveDoctors };
}

export type DoctorTypeService = ReturnType<typeof createDoctorTypeService>;
