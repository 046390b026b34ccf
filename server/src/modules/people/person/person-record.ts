import { sql } from 'kysely';
import { invalidField } from '../../../core/errors';
import type { Lang } from '../../../core/i18n';
import type { IdNumberCipher } from '../../../core/id-number';
import { filterValue, type ListQuery } from '../../../core/resource/list-query';
import type { ResourceStore, WriteContext } from '../../../core/resource/resource';
import type { Narrow, TableRepository } from '../../../core/resource/table.repository';
import type { Tx } from '../../../core/tenancy';
import { formatText } from '../../../core/validation';
import { scopedTo } from '../organization/data-scope';
import { refuseWhileFiled } from '../qualification/filed-under';
import { isIdCardNo } from '../trainee-field/custom-field';
import { createPeople, type PersonInput, type PersonRow, personInput } from './person';
import { peopleMatching } from './person.repository';

/** A record as its table and its joins give it: the person still one object. */
export type PersonRecord<Row> = Omit<Row, keyof PersonRow> & { person: PersonRow };

/** The row the API answers: the person's fields beside the record's. */
export const flattenPerson = <Row extends { id: string }>({ person, id, ...rest }: PersonRecord<Row>): Row =>
  ({ id, ...person, ...rest }) as unknown as Row;

/** The tables of such records; each has `id` and `person_id` (typed as the first for the queries over them). */
export type PersonRecordTable = 'staff' | 'doctor' | 'expert';

const personKeys = Object.keys(personInput) as (keyof PersonInput)[];

/** The person's fields of an input, and the record's own. */
export function splitPerson(input: object): { person: PersonInput; own: Record<string, unknown> } {
  const person: Record<string, unknown> = {};
  const own: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined || key === 'version') continue;
    if ((personKeys as string[]).includes(key)) person[key] = value;
    else own[key] = value;
  }
  return { person: person as PersonInput, own };
}

const texts = {
  'zh-CN': { outOfScope: '不在你的数据范围内', revealed: '查看证件号码' },
  'en-US': { outOfScope: 'is outside your data scope', revealed: 'ID number revealed' },
};

/** What reveals a record's ID number: its resource's actions (`pii-view`, audited). */
interface Acting<Row> {
  act(
    ctx: WriteContext,
    id: string,
    action: string,
    work: (tx: Tx, row: Row) => Promise<Row>,
    note?: string,
  ): Promise<Row>;
}

/** The ID number of a record's person in clear, for whoever may see it; the audit trail says who saw whose. */
export const idNumberRevealer =
  <Row extends { personId: string }>(cipher: IdNumberCipher, resource: Acting<Row>) =>
  async (ctx: WriteContext, id: string): Promise<string | null> => {
    const people = createPeople(cipher);
    let idNo: string | null = null;
    await resource.act(
      ctx,
      id,
      'pii-view',
      async (tx, row) => {
        idNo = await people.reveal(tx, row.personId);
        return row;
      },
      texts[ctx.lang].revealed,
    );
    return idNo;
  };

export interface PersonRecordSpec<
  Row extends PersonRow & { id: string; version: number },
  Create,
  Update extends { version: number },
> {
  table: PersonRecordTable;
  repo: TableRepository<PersonRecord<Row>>;
  /** Searched by its start (upper case) beside the person. */
  numberColumn: string;
  /** The organisations the roles' data scope reads, and the field a write outside the scope is refused on. */
  orgColumns: readonly string[];
  scopeField: string;
  /** Why a person cannot hold a second record of this kind. */
  already: Record<Lang, string>;
  /** The record's own rules on a write, refusing on a field (`current`: the record an update changes). */
  check(tx: Tx, input: Partial<Create>, current: Row | undefined, ctx: WriteContext): Promise<void>;
  /** The person an input is for when the record does not name one by its fields (a doctor promoted to expert). */
  personOf?(tx: Tx, input: Create, ctx: WriteContext): Promise<string | undefined>;
  /** The list's filters without a column (arrays, say), as conditions. */
  narrow?(query: ListQuery): Narrow;
  /** An import row (checked by the import schema) as the record's input: references by name resolved. */
  fromImport?(tx: Tx, record: Record<string, unknown>, existing: Row | undefined, ctx: WriteContext): Promise<object>;
}

/**
 * The store of a record a person holds once (staff, doctor, expert; docs/domain.md §4.3): the person found by ID
 * number (or made) when the record is made, changed with it; the list found by the person's name, pinyin, initials,
 * mobile or whole ID number and by the start of the record's number, and kept to the viewer's data scope in the same
 * query (an id outside it is not found, a write that would leave it is refused); imports find records by ID number.
 */
export function personRecordStore<
  Row extends PersonRow & { id: string; version: number },
  Create,
  Update extends { version: number },
>(cipher: IdNumberCipher, spec: PersonRecordSpec<Row, Create, Update>) {
  const people = createPeople(cipher);
  const { repo } = spec;
  const table = spec.table as 'staff';
  const flatten = (record: PersonRecord<Row>) => flattenPerson<Row>(record);

  const scoped = (tx: Tx, viewer: string | undefined) => scopedTo(tx, viewer, spec.orgColumns, table);

  const find = async (tx: Tx, id: string, viewer?: string) => {
    const record = await repo.find(tx, id, await scoped(tx, viewer));
    return record && flatten(record);
  };

  async function narrowOf(tx: Tx, query: ListQuery): Promise<Narrow> {
    const keyword = filterValue(query, 'keyword');
    const own = spec.narrow?.(query);
    const inScope = await scoped(tx, query.viewer);
    const typed = keyword?.kind === 'keyword' ? keyword.text.trim() : undefined;
    const people = typed === undefined ? undefined : peopleMatching(cipher, typed);
    return (qb) => {
      const q = inScope(own ? own(qb) : qb);
      if (typed === undefined) return q;
      // index look-ups made once into an array, so that the list reads those rows by id (see the trainees' list)
      return q.where(
        sql<boolean>`${sql.ref(`${table}.id`)} = ANY(ARRAY(SELECT r.id FROM ${sql.table(table)} r
          WHERE r.person_id = ANY(ARRAY(${people}))
          UNION SELECT r.id FROM ${sql.table(table)} r
          WHERE starts_with(${sql.ref(`r.${spec.numberColumn}`)} COLLATE "C", ${typed.toUpperCase()})))`,
      );
    };
  }

  const ownValues = (input: object) => splitPerson(input).own;

  /** Rows just written, as the writer may see them: each must stay within the writer's data scope. */
  async function inScope(tx: Tx, ids: string[], ctx: WriteContext): Promise<Row[]> {
    const narrow = await scoped(tx, ctx.actorId);
    const { rows } = await repo.list(tx, { page: null, sort: [], filters: [] }, (q) =>
      narrow(q.where('id', 'in', ids)),
    );
    if (rows.length !== ids.length) throw invalidField(spec.scopeField, texts[ctx.lang].outOfScope);
    const byId = new Map(rows.map((r) => [r.id, flatten(r)]));
    return ids.map((id) => byId.get(id) as Row);
  }

  /** Records made together (an import's batch; a create is a batch of one), their people found or made together. */
  async function createMany(tx: Tx, inputs: Create[], ctx: WriteContext): Promise<Row[]> {
    for (const input of inputs) await spec.check(tx, input, undefined, ctx);
    const given: (string | undefined)[] = [];
    for (const input of inputs) given.push(await spec.personOf?.(tx, input, ctx));
    const fresh = inputs.filter((_, i) => !given[i]);
    const saved = fresh.length
      ? await people.saveMany(
          tx,
          fresh.map((input) => splitPerson(input as object).person),
          ctx,
          ctx.lang,
        )
      : [];
    const persons = given.map((id) => (id ? { id, made: false } : (saved.shift() as (typeof saved)[number])));
    const found = persons.filter((p) => !p.made).map((p) => p.id);
    if (found.length) {
      const holder = await tx.selectFrom(table).select('person_id').where('person_id', 'in', found).executeTakeFirst();
      if (holder) throw invalidField('idNo', spec.already[ctx.lang]);
    }
    const made = await repo.insertMany(
      tx,
      inputs.map((input, i) => ({ ...ownValues(input as object), personId: persons[i]?.id })),
      ctx,
    );
    return inScope(
      tx,
      made.map((r) => r.id),
      ctx,
    );
  }
  const create = async (tx: Tx, input: Create, ctx: WriteContext) => (await createMany(tx, [input], ctx))[0] as Row;

  const store: ResourceStore<Row, Create, Update> = {
    list: async (tx, query) => {
      const { rows, total } = await repo.list(tx, query, await narrowOf(tx, query));
      return { rows: rows.map(flatten), total };
    },
    find,
    create,
    createMany,
    async update(tx, current, input, ctx) {
      await spec.check(tx, input as unknown as Partial<Create>, current, ctx);
      const { person } = splitPerson(input as object);
      const updated = await repo.update(
        tx,
        current.id,
        ownValues(input as object),
        ctx,
        (input as { version: number }).version,
      );
      if (!updated) return undefined;
      if (Object.keys(person).length) await people.save(tx, person, current.personId, ctx, ctx.lang);
      return (await inScope(tx, [current.id], ctx))[0];
    },
    remove: async (tx, rows, ctx) => {
      await refuseWhileFiled(
        tx,
        spec.table,
        rows.map((r) => r.id),
      );
      await repo.remove(
        tx,
        rows.map((r) => r.id),
        ctx,
      );
    },
    /** The records of the people whose ID numbers are `keys`, each carrying its key (`idNo`). */
    async findAllByKey(tx, keys) {
      if (keys.length === 0) return [];
      // under every key of the ring: during a rotation a person not yet re-sealed keeps the previous key's hash
      const hashes = new Map(keys.flatMap((k) => cipher.hashes(k).map((h) => [h.toString('hex'), k] as const)));
      const rows = await tx
        .selectFrom(table)
        .innerJoin('person', 'person.id', `${table}.person_id`)
        .select([`${table}.id as id`, sql<string>`encode(person.id_no_hash, 'hex')`.as('hash')])
        .where(
          'person.id_no_hash',
          'in',
          [...hashes.keys()].map((h) => Buffer.from(h, 'hex')),
        )
        .execute();
      if (rows.length === 0) return [];
      const keyOf = new Map(rows.map((r) => [String(r.id), hashes.get(r.hash)]));
      const { rows: found } = await repo.list(tx, { page: null, sort: [], filters: [] }, (q) =>
        q.where('id', 'in', [...keyOf.keys()]),
      );
      return found.map((r) => Object.assign(flatten(r), { idNo: keyOf.get(r.id) }));
    },
    async fromImport(tx, record, existing, ctx) {
      const idNo = record.idNo as string | undefined;
      if (idNo && (record.idType ?? 'resident_id') === 'resident_id' && !isIdCardNo(idNo))
        throw invalidField('idNo', formatText('idCardNo', ctx.lang));
      const input = spec.fromImport ? await spec.fromImport(tx, record, existing, ctx) : record;
      await spec.check(tx, input as Partial<Create>, existing, ctx);
      return (existing ? { ...input, version: existing.version } : input) as Create | Update;
    },
  };

  return { store, find, scoped, people, flatten };
}
