import { invalidField } from '../../../core/errors';
import type { Lang } from '../../../core/i18n';
import type { IdNumberCipher } from '../../../core/id-number';
import { createResourceService, type ResourceDeps } from '../../../core/resource/resource.service';
import type { Tx } from '../../../core/tenancy';
import { onceIn } from '../../../core/tx-memo';
import { idNumberRevealer, personRecordStore } from '../person/person-record';
import { type CreateDoctor, type Doctor, doctorResource, doctorTable, type UpdateDoctor } from './doctor.resource';

const texts = {
  'zh-CN': {
    noType: '医生类型不存在',
    typeDisabled: '该医生类型已停用',
    licenseRequired: '该医生类型须填写执业证书编号',
    noOrg: '组织不存在',
    noUnit: '单位不存在',
    taken: '已被其他医生使用',
    already: '此人已是医生',
    noNamed: '没有该名称或编码的记录',
  },
  'en-US': {
    noType: 'is not an existing doctor type',
    typeDisabled: 'the doctor type is disabled',
    licenseRequired: 'is required by the doctor type',
    noOrg: 'is not an existing organisation',
    noUnit: 'is not an existing unit',
    taken: 'is used by another doctor',
    already: 'this person is already a doctor',
    noNamed: 'nothing has this name or code',
  },
};

/**
 * Doctors (docs/domain.md §4.6): one record per person (a trainee who becomes a doctor stays one person), of a type
 * whose licence rule they keep, internal (a department) or external (a unit); numbers and licences unique.
 */
export function createDoctorService(deps: ResourceDeps & { idNumbers: IdNumberCipher }) {
  const exists = (tx: Tx, table: 'organization' | 'unit', id: string) =>
    onceIn(tx, `${table}:${id}`, () => tx.selectFrom(table).select('id').where('id', '=', id).executeTakeFirst());

  async function unique(
    tx: Tx,
    column: 'doctor_no' | 'license_no',
    value: string,
    self: string | undefined,
    lang: Lang,
  ) {
    const other = await tx.selectFrom('doctor').select('id').where(column, '=', value).executeTakeFirst();
    if (other && String(other.id) !== self)
      throw invalidField(column === 'doctor_no' ? 'doctorNo' : 'licenseNo', texts[lang].taken);
  }

  /** A row named by its name or code (an import's cell). */
  const named = async (tx: Tx, table: 'doctor_type' | 'organization', text: string, field: string, lang: Lang) => {
    const row = await onceIn(tx, `${table}:named:${text}`, () =>
      tx
        .selectFrom(table)
        .select('id')
        .where((eb) => eb.or([eb('name', '=', text), eb('code', '=', text)]))
        .executeTakeFirst(),
    );
    if (!row) throw invalidField(field, texts[lang].noNamed);
    return String(row.id);
  };

  const records = personRecordStore<Doctor, CreateDoctor, UpdateDoctor>(deps.idNumbers, {
    table: 'doctor',
    repo: doctorTable,
    numberColumn: 'doctor_no',
    orgColumns: ['org_id'],
    scopeField: 'orgId',
    already: { 'zh-CN': texts['zh-CN'].already, 'en-US': texts['en-US'].already },
    async check(tx, input, current, ctx) {
      const t = texts[ctx.lang];
      const typeId = input.doctorTypeId ?? current?.doctorTypeId;
      const type = typeId
        ? await onceIn(tx, `doctor-type:${typeId}`, () =>
            tx
              .selectFrom('doctor_type')
              .select(['status', 'license_required'])
              .where('id', '=', typeId)
              .executeTakeFirst(),
          )
        : undefined;
      if (!type) throw invalidField('doctorTypeId', t.noType);
      if (input.doctorTypeId && input.doctorTypeId !== current?.doctorTypeId && type.status !== 'enabled')
        throw invalidField('doctorTypeId', t.typeDisabled);
      const license = input.licenseNo === undefined ? current?.licenseNo : input.licenseNo;
      if (type.license_required && !license) throw invalidField('licenseNo', t.licenseRequired);
      if (input.orgId && !(await exists(tx, 'organization', input.orgId))) throw invalidField('orgId', t.noOrg);
      if (input.unitId && !(await exists(tx, 'unit', input.unitId))) throw invalidField('unitId', t.noUnit);
      if (input.doctorNo) await unique(tx, 'doctor_no', input.doctorNo, current?.id, ctx.lang);
      if (input.licenseNo) await unique(tx, 'license_no', input.licenseNo, current?.id, ctx.lang);
    },
    async fromImport(tx, record, _existing, ctx) {
      const { doctorType, department, unit, ...rest } = record as Record<string, string | undefined>;
      const values: Record<string, unknown> = { ...rest };
      values.doctorTypeId = await named(tx, 'doctor_type', doctorType as string, 'doctorType', ctx.lang);
      if (department) values.orgId = await named(tx, 'organization', department, 'department', ctx.lang);
      if (unit) {
        const found = await onceIn(tx, `unit:named:${unit}`, () =>
          tx.selectFrom('unit').select('id').where('name', '=', unit).executeTakeFirst(),
        );
        if (!found) throw invalidField('unit', texts[ctx.lang].noNamed);
        values.unitId = String(found.id);
      }
      return values;
    },
  });
  const resource = createResourceService(doctorResource, records.store, deps);

  return {
    resource,

    reveal: idNumberRevealer<Doctor>(deps.idNumbers, resource),
  };
}

export type DoctorService = ReturnType<typeof createDoctorService>;
