import { z } from '@hono/zod-openapi';
import { type RawBuilder, sql } from 'kysely';
import { pinyin } from 'pinyin-pro';
import { invalidField } from '../../../core/errors';
import type { Lang } from '../../../core/i18n';
import { type IdNumberCipher, maskIdNo, normaliseIdNo } from '../../../core/id-number';
import type { Actor } from '../../../core/resource/table.repository';
import { field } from '../../../core/schema-kit';
import type { Tx } from '../../../core/tenancy';
import { formatRule, formatText } from '../../../core/validation';
import type { Audited, Defaulted, Id as IdColumn, Nullable, Ref } from '../../../db/types';
import { isIdCardNo } from '../trainee-field/custom-field';

/**
 * One identity per human in a tenant (docs/domain.md §4.3), shared by the staff, doctor, trainee and expert records:
 * found by its ID number's keyed hash, so a trainee who becomes a doctor is the same person, never a second one.
 */
export const ID_TYPES = ['resident_id', 'passport', 'hk_macao_pass', 'taiwan_pass', 'other'] as const;
export type IdType = (typeof ID_TYPES)[number];

interface PersonTable extends Audited {
  id: IdColumn;
  tenant_id: Ref;
  name: string;
  name_pinyin: Defaulted<string>;
  name_initials: Defaulted<string>;
  gender: Nullable<string>;
  birth_date: Nullable<string>;
  id_type: Defaulted<IdType>;
  id_no_enc: Nullable<Uint8Array>;
  id_no_hash: Nullable<Uint8Array>;
  id_no_masked: Nullable<string>;
  mobile: Nullable<string>;
  email: Nullable<string>;
  ethnicity: Nullable<string>;
  education: Nullable<string>;
  degree: Nullable<string>;
}
declare module '../../../db/types' {
  interface DB {
    person: PersonTable;
  }
}

const dictValue = z.string().trim().min(1).max(50);

/** The fields of a person a record's form writes (the ID number in clear: it is stored encrypted). */
export const personInput = {
  name: field.requiredText(50).openapi({ example: '张三' }),
  gender: dictValue.nullable().optional().openapi({ description: 'Dictionary `gender`' }),
  birthDate: z.iso.date().nullable().optional(),
  idType: z.enum(ID_TYPES).optional().openapi({ description: 'Dictionary `id_type`; `resident_id` when left out' }),
  idNo: z
    .string()
    .trim()
    .toUpperCase()
    .min(4)
    .max(30)
    .regex(/^[0-9A-Z()-]+$/, formatRule('idNo'))
    .nullable()
    .optional()
    .openapi({ example: '11010519491231002X', description: 'Stored encrypted; answered masked' }),
  mobile: z
    .string()
    .trim()
    .regex(/^1[3-9]\d{9}$/, formatRule('mobile'))
    .nullable()
    .optional()
    .openapi({ example: '13800000000' }),
  email: z.email().max(100).nullable().optional(),
  ethnicity: dictValue.nullable().optional(),
  education: dictValue.nullable().optional().openapi({ description: 'Dictionary `education`' }),
  degree: dictValue.nullable().optional(),
};
export type PersonInput = { [K in keyof typeof personInput]?: z.infer<(typeof personInput)[K]> };

/** A person as the records that are theirs answer it: the ID number masked. */
export const personRow = {
  personId: z.string(),
  name: z.string(),
  gender: z.string().nullable(),
  birthDate: z.string().nullable(),
  idType: z.enum(ID_TYPES),
  idNoMasked: z.string().nullable().openapi({ example: '1101**********002X' }),
  mobile: z.string().nullable(),
  email: z.string().nullable(),
  ethnicity: z.string().nullable(),
  education: z.string().nullable(),
  degree: z.string().nullable(),
};
export type PersonRow = { [K in keyof typeof personRow]: z.infer<(typeof personRow)[K]> };

/** The person of the row whose `person_id` is `column`, as one JSON object (selected with that row). */
export const personOf = (column: string): RawBuilder<unknown> => sql`(SELECT json_build_object(
    'personId', p.id::text, 'name', p.name, 'gender', p.gender, 'birthDate', p.birth_date, 'idType', p.id_type,
    'idNoMasked', p.id_no_masked, 'mobile', p.mobile, 'email', p.email, 'ethnicity', p.ethnicity,
    'education', p.education, 'degree', p.degree)
  FROM person p WHERE p.id = ${sql.ref(column)})`;

/** `张三丰` → `zhangsanfeng` and `zsf`: what a keyword also finds a person by (lower case). */
export function pinyinOf(name: string): { pinyin: string; initials: string } {
  const syllables = pinyin(name, { toneType: 'none', type: 'array', nonZh: 'consecutive' });
  const initials = pinyin(name, { pattern: 'first', toneType: 'none', type: 'array', nonZh: 'consecutive' });
  return {
    pinyin: syllables.join('').toLowerCase().slice(0, 300),
    initials: initials.join('').toLowerCase().slice(0, 50),
  };
}

const texts = {
  'zh-CN': {
    otherPerson: '该证件号码已属于另一人（姓名不同）',
    mobileTaken: '该手机号已属于另一人',
  },
  'en-US': {
    otherPerson: 'belongs to another person (another name)',
    mobileTaken: 'belongs to another person',
  },
};

/** Whose ID number and mobile a write may not take: the person it writes (none when it makes one). */
export function createPeople(cipher: IdNumberCipher) {
  async function findByIdNo(tx: Tx, idNo: string) {
    return tx
      .selectFrom('person')
      .select(['id', 'name'])
      .where('id_no_hash', 'in', cipher.hashes(idNo))
      .executeTakeFirst();
  }

  async function checkMobile(tx: Tx, mobile: string | null | undefined, self: string | undefined, lang: Lang) {
    if (!mobile) return;
    const other = await tx.selectFrom('person').select('id').where('mobile', '=', mobile).executeTakeFirst();
    if (other && String(other.id) !== self) throw invalidField('mobile', texts[lang].mobileTaken);
  }

  const columns = (input: PersonInput) => {
    const { idNo, birthDate, idType, ...rest } = input;
    const values: Record<string, unknown> = { ...rest };
    if (birthDate !== undefined) values.birth_date = birthDate;
    if (idType !== undefined) values.id_type = idType;
    if (input.name !== undefined) {
      const { pinyin: full, initials } = pinyinOf(input.name);
      values.name_pinyin = full;
      values.name_initials = initials;
    }
    if (idNo !== undefined) {
      values.id_no_enc = idNo ? cipher.encrypt(idNo) : null;
      values.id_no_hash = idNo ? cipher.hash(idNo) : null;
      values.id_no_masked = idNo ? maskIdNo(idNo) : null;
    }
    return values;
  };

  return {
    /**
     * The person a record of `input` is (`made`: new): with `self`, that person, changed; else the person of its ID
     * number when there is one of the same name (linked, and given what `input` adds), or a new one. An ID number of another
     * name, or a mobile of another person, is refused on its field.
     */
    async save(
      tx: Tx,
      input: PersonInput,
      self: string | undefined,
      actor: Actor,
      lang: Lang,
    ): Promise<{ id: string; made: boolean }> {
      const idType = input.idType ?? 'resident_id';
      if (input.idNo && idType === 'resident_id' && !isIdCardNo(normaliseIdNo(input.idNo)))
        throw invalidField('idNo', formatText('idCardNo', lang));
      let target = self;
      if (input.idNo) {
        const holder = await findByIdNo(tx, input.idNo);
        if (holder && String(holder.id) !== self) {
          if (self || (input.name !== undefined && holder.name !== input.name))
            throw invalidField('idNo', texts[lang].otherPerson);
          target = String(holder.id);
        }
      }
      await checkMobile(tx, input.mobile, target, lang);
      const values = columns(input);
      if (target) {
        await tx
          .updateTable('person')
          .set({ ...values, updated_at: actor.now, updated_by: actor.actorId, version: sql`version + 1` })
          .where('id', '=', target)
          .execute();
        return { id: target, made: false };
      }
      const made = await tx
        .insertInto('person')
        .values({
          ...(values as { name: string }),
          tenant_id: actor.tenantId,
          created_at: actor.now,
          created_by: actor.actorId,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { id: String(made.id), made: true };
    },

    /**
     * The people of many new records at once (an import's batch; a create is a batch of one): each as `save` without
     * `self` would find or make it, in turn, with the look-ups by ID number and by mobile made once for the batch and
     * the new people written in one statement. A row naming a person made earlier in the batch is that person.
     */
    async saveMany(
      tx: Tx,
      inputs: readonly PersonInput[],
      actor: Actor,
      lang: Lang,
    ): Promise<{ id: string; made: boolean }[]> {
      const hashes = inputs.map((input) => {
        if (!input.idNo) return undefined;
        if ((input.idType ?? 'resident_id') === 'resident_id' && !isIdCardNo(normaliseIdNo(input.idNo)))
          throw invalidField('idNo', formatText('idCardNo', lang));
        return cipher.hashes(input.idNo);
      });
      // every key's hash: during a rotation a person not yet re-sealed keeps the previous key's (the first is stored)
      const known = hashes.flatMap((h) => h ?? []);
      const mobiles = inputs.flatMap((input) => (input.mobile ? [input.mobile] : []));
      /** Who each ID number (hex of its hash) and each mobile belongs to: `p<id>` a stored person, `n<i>` a new one. */
      const holders = new Map<string, { who: string; name: string }>();
      const mobileOwners = new Map<string, string>();
      if (known.length)
        for (const p of await tx
          .selectFrom('person')
          .select(['id', 'name', 'id_no_hash'])
          .where('id_no_hash', 'in', known)
          .execute())
          holders.set(Buffer.from(p.id_no_hash as Uint8Array).toString('hex'), { who: `p${p.id}`, name: p.name });
      if (mobiles.length)
        for (const p of await tx.selectFrom('person').select(['id', 'mobile']).where('mobile', 'in', mobiles).execute())
          mobileOwners.set(p.mobile as string, `p${p.id}`);
      const made: Record<string, unknown>[] = [];
      const whos: string[] = [];
      for (const [i, input] of inputs.entries()) {
        const hexes = (hashes[i] ?? []).map((h) => h.toString('hex'));
        const hex = hexes[0];
        const holder = hexes.map((h) => holders.get(h)).find((h) => h !== undefined);
        if (holder && input.name !== undefined && holder.name !== input.name)
          throw invalidField('idNo', texts[lang].otherPerson);
        let who = holder?.who;
        const owner = input.mobile ? mobileOwners.get(input.mobile) : undefined;
        if (owner && owner !== who) throw invalidField('mobile', texts[lang].mobileTaken);
        const values = columns(input);
        if (who?.startsWith('p'))
          await tx
            .updateTable('person')
            .set({ ...values, updated_at: actor.now, updated_by: actor.actorId, version: sql`version + 1` })
            .where('id', '=', who.slice(1))
            .execute();
        else if (who) Object.assign(made[Number(who.slice(1))] as object, values);
        else {
          who = `n${made.length}`;
          made.push({ ...values, tenant_id: actor.tenantId, created_at: actor.now, created_by: actor.actorId });
          if (hex !== undefined) holders.set(hex, { who, name: input.name as string });
        }
        if (input.mobile) mobileOwners.set(input.mobile, who);
        whos.push(who);
      }
      // multi-row VALUES: the ids come back in the rows' order
      const ids = made.length
        ? (
            await tx
              .insertInto('person')
              .values(made as { name: string; tenant_id: string }[])
              .returning('id')
              .execute()
          ).map((r) => String(r.id))
        : [];
      return whos.map((who) =>
        who.startsWith('p')
          ? { id: who.slice(1), made: false }
          : { id: ids[Number(who.slice(1))] as string, made: true },
      );
    },

    /** The ID number in clear (for whoever may see it; the caller audits it). */
    async reveal(tx: Tx, personId: string): Promise<string | null> {
      const row = await tx.selectFrom('person').select('id_no_enc').where('id', '=', personId).executeTakeFirst();
      return row?.id_no_enc ? cipher.decrypt(row.id_no_enc) : null;
    },

    hash: (idNo: string) => cipher.hash(idNo),
  };
}

export type People = ReturnType<typeof createPeople>;
