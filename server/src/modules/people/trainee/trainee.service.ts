import { type RawBuilder, sql } from 'kysely';
import { AppError, invalidField, notFound, versionConflict } from '../../../core/errors';
import type { Lang } from '../../../core/i18n';
import type { IdNumberCipher } from '../../../core/id-number';
import type { Jobs } from '../../../core/jobs';
import { countedList } from '../../../core/resource/counted-list';
import { filterValue, type ListQuery } from '../../../core/resource/list-query';
import { type ResourceStore, sameAsCreate, type WriteContext } from '../../../core/resource/resource';
import { createResourceService, type ResourceDeps } from '../../../core/resource/resource.service';
import type { Narrow } from '../../../core/resource/table.repository';
import type { Tx } from '../../../core/tenancy';
import { onceIn } from '../../../core/tx-memo';
import { INDEXED_VALUE_LENGTH } from '../../../db/migrations/0020_trainee_custom_values';
import { notify } from '../../message/message/outbox';
import { dataScopeOf, inDataScope, scopedTo } from '../organization/data-scope';
import { createPeople, type PersonInput, personInput } from '../person/person';
import { peopleMatching } from '../person/person.repository';
import { idNumberRevealer } from '../person/person-record';
import { refuseWhileFiled } from '../qualification/filed-under';
import { checkCustomValues } from './custom-values';
import { traineeImport } from './trainee.import';
import {
  type AssignTutor,
  type AuditTrainee,
  type AuditTrainees,
  type CreateTrainee,
  flatten,
  IN_TRAINING,
  nextStatuses,
  type Trainee,
  type TraineeCounts,
  type TraineeHistory,
  type TraineeStatus,
  type TransitionTrainee,
  type TransitionTrainees,
  traineeResource,
  traineeTable,
  type UpdateTrainee,
} from './trainee.resource';
import { traineeBaseChanges } from './trainee-base-change';

const texts = {
  'zh-CN': {
    noType: '学员类型不存在',
    typeDisabled: '该学员类型已停用',
    notBase: (kind: string) => `须为${kind}`,
    trainingBase: '培训基地',
    specialtyBase: '专业基地',
    noUnit: '单位不存在',
    noTutor: '须为在职的导师（医生）',
    noTaken: '该学员编号已被使用',
    noPattern: '该学员类型没有编号规则，须填写学员编号',
    exhausted: '该编号规则本年度的序号已用完',
    already: '此人已是该类型的学员',
    custom: '须为对象：字段标识 → 值（JSON）',
    outOfScope: '不在你的数据范围内',
    byRequest: '学员已进入培训，变更基地须提交变更申请并经审批',
  },
  'en-US': {
    noType: 'is not an existing trainee type',
    typeDisabled: 'the trainee type is disabled',
    notBase: (kind: string) => `must be a ${kind}`,
    trainingBase: 'training base',
    specialtyBase: 'specialty base',
    noUnit: 'is not an existing unit',
    noTutor: 'must be an active doctor who is a tutor',
    noTaken: 'is used by another trainee',
    noPattern: 'is required: the trainee type has no number pattern',
    exhausted: "the number pattern's sequence is used up for this year",
    already: 'this person is already a trainee of this type',
    custom: 'must be a JSON object of field key → value',
    outOfScope: 'is outside your data scope',
    byRequest: 'changes, for a trainee in training, by a request that is approved',
  },
};

/** Where a move of the lifecycle ends a training: the record's actual end. */
const ENDING: readonly TraineeStatus[] = ['graduated', 'terminated', 'withdrawn'];

const personKeys = Object.keys(personInput) as (keyof PersonInput)[];
const pick = <T extends object>(input: T, keys: readonly string[]) =>
  Object.fromEntries(Object.entries(input).filter(([k, v]) => keys.includes(k) && v !== undefined));

/** `R{yyyy}{seq:5}` in `year`: the text before the sequence, its width and the text after it. */
function numberParts(pattern: string, year: number) {
  const filled = pattern.replaceAll('{yyyy}', String(year)).replaceAll('{yy}', String(year).slice(-2));
  const match = /^(.*)\{seq:(\d)\}(.*)$/.exec(filled);
  if (!match) throw new Error(`not a number pattern: ${pattern}`);
  return { before: match[1] ?? '', width: Number(match[2]), after: match[3] ?? '' };
}

/**
 * Trainees whose custom value under `key` is `value` (or holds it, for a list; every item of a list filtered by), found
 * through `trainee_custom_value` (migration 0020: conditions an index answers under row-level security); a value that
 * table does not hold (an object, a long text) by containment.
 */
function customValueIs(key: string, value: unknown): RawBuilder<boolean> {
  const items = Array.isArray(value) ? value : [value];
  const indexed = (item: unknown) =>
    ['string', 'number', 'boolean'].includes(typeof item) && String(item).length <= INDEXED_VALUE_LENGTH;
  if (items.length === 0 || !items.every(indexed))
    return sql<boolean>`custom_fields @> ${JSON.stringify({ [key]: value })}::jsonb`;
  return sql<boolean>`(${sql.join(
    items.map(
      (item) => sql`trainee.id IN (SELECT v.trainee_id FROM trainee_custom_value v
        WHERE v.key = ${key} AND v.value = (${JSON.stringify(item)}::jsonb #>> '{}'))`,
    ),
    sql` AND `,
  )})`;
}

/**
 * Trainees (docs/domain.md §4.9): one person each (found by ID number, else made), of a type whose custom fields
 * their values keep, at a training base; numbered by the type's pattern; moved through their lifecycle and their
 * registration audit with a history of each step.
 */
export function createTraineeService(deps: ResourceDeps & { idNumbers: IdNumberCipher; jobs: Jobs }) {
  const people = createPeople(deps.idNumbers);
  const repo = traineeTable;
  const imports = traineeImport(deps.idNumbers, async (tx, ids) => {
    const { rows } = await repo.list(tx, { page: null, sort: [], filters: [] }, (q) => q.where('id', 'in', ids));
    return rows.map(flatten);
  });
  /** Rows outside the viewer's data scope are not found (an id outside it answers 404). */
  const bases = ['training_base_id', 'specialty_base_id'];
  const scoped = (tx: Tx, viewer: string | undefined) => scopedTo(tx, viewer, bases, 'trainee');
  const find = async (tx: Tx, id: string, viewer?: string) => {
    const record = await repo.find(tx, id, await scoped(tx, viewer));
    return record && flatten(record);
  };

  /** The filters the table cannot apply: the keyword over the person, and custom values by containment. */
  async function narrowOf(tx: Tx, query: ListQuery, lang: Lang): Promise<Narrow> {
    const keyword = filterValue(query, 'keyword');
    const custom = filterValue(query, 'custom');
    let values: Record<string, unknown> | undefined;
    if (custom?.kind === 'eq') {
      try {
        values = JSON.parse(custom.value);
      } catch {
        values = undefined;
      }
      if (typeof values !== 'object' || values === null || Array.isArray(values))
        throw invalidField('custom', texts[lang].custom);
    }
    const inScope = await scoped(tx, query.viewer);
    const typed = keyword?.kind === 'keyword' ? keyword.text.trim() : undefined;
    const people = typed === undefined ? undefined : peopleMatching(deps.idNumbers, typed);
    return (qb) => {
      let q = inScope(qb);
      if (typed !== undefined) {
        // the trainees of the people it finds and those whose number starts with it: index look-ups, made once into
        // an array, so that the list then reads those rows by id rather than testing every row in its order
        q = q.where(
          sql<boolean>`trainee.id = ANY(ARRAY(SELECT t.id FROM trainee t
            WHERE t.person_id = ANY(ARRAY(${people}))
            UNION SELECT t.id FROM trainee t WHERE starts_with(t.trainee_no COLLATE "C", ${typed.toUpperCase()})))`,
        );
      }
      for (const [key, value] of Object.entries(values ?? {})) q = q.where(customValueIs(key, value));
      return q;
    };
  }

  async function typeOf(tx: Tx, id: string, lang: Lang) {
    const type = await onceIn(tx, `trainee-type:${id}`, () =>
      tx
        .selectFrom('trainee_type')
        .select(['id', 'status', 'trainee_no_pattern', 'requires_registration_audit', 'audit_levels'])
        .where('id', '=', id)
        .executeTakeFirst(),
    );
    if (!type) throw invalidField('traineeTypeId', texts[lang].noType);
    return { ...type, auditLevels: (type.audit_levels ?? []) as string[] };
  }

  async function checkReferences(tx: Tx, input: Partial<CreateTrainee>, lang: Lang) {
    const t = texts[lang];
    const bases = [
      ['trainingBaseId', input.trainingBaseId, 'training_base', t.trainingBase],
      ['specialtyBaseId', input.specialtyBaseId, 'specialty_base', t.specialtyBase],
    ] as const;
    for (const [field, id, orgType, kind] of bases) {
      if (!id) continue;
      const org = await onceIn(tx, `organization:${id}`, () =>
        tx.selectFrom('organization').select('org_type').where('id', '=', id).executeTakeFirst(),
      );
      if (org?.org_type !== orgType) throw invalidField(field, t.notBase(kind));
    }
    if (input.workUnitId) {
      const unit = await tx.selectFrom('unit').select('id').where('id', '=', input.workUnitId).executeTakeFirst();
      if (!unit) throw invalidField('workUnitId', t.noUnit);
    }
    if (input.tutorDoctorId) await checkTutor(tx, input.tutorDoctorId, lang);
  }

  /** A tutor is a doctor who tutors and is active. */
  async function checkTutor(tx: Tx, doctorId: string, lang: Lang) {
    const tutor = await onceIn(tx, `tutor:${doctorId}`, () =>
      tx
        .selectFrom('doctor')
        .select('id')
        .where('id', '=', doctorId)
        .where('is_tutor', '=', true)
        .where('status', '=', 'active')
        .executeTakeFirst(),
    );
    if (!tutor) throw invalidField('tutorDoctorId', texts[lang].noTutor);
  }

  async function checkNumber(tx: Tx, traineeNo: string, self: string | undefined, lang: Lang) {
    const other = await tx.selectFrom('trainee').select('id').where('trainee_no', '=', traineeNo).executeTakeFirst();
    if (other && String(other.id) !== self) throw invalidField('traineeNo', texts[lang].noTaken);
  }

  /** The next `count` numbers of `pattern` this year; numbering waits for other numberings of the same prefix. */
  async function nextNumbers(tx: Tx, pattern: string, count: number, ctx: WriteContext): Promise<string[]> {
    const { before, width, after } = numberParts(pattern, ctx.now.getFullYear());
    await sql`SELECT pg_advisory_xact_lock(hashtext(${`trainee-no:${before}`}))`.execute(tx);
    // A pattern's literals are letters, digits, _ and -: none is special in a regular expression outside brackets.
    const shape = `^${before}[0-9]{${width}}${after}$`;
    // the highest number of that shape: read from the end of the prefix's range of the index, not by a scan
    const row = await tx
      .selectFrom('trainee')
      .select(sql<string>`substr(trainee_no, ${before.length + 1}, ${width})`.as('last'))
      .where(sql<boolean>`starts_with(trainee_no COLLATE "C", ${before})`)
      .where(sql<boolean>`trainee_no ~ ${shape}`)
      .orderBy(sql`trainee_no COLLATE "C"`, 'desc')
      .limit(1)
      .executeTakeFirst();
    const next = Number(row?.last ?? 0) + 1;
    if (next + count - 1 >= 10 ** width) throw invalidField('traineeNo', texts[ctx.lang].exhausted);
    return Array.from({ length: count }, (_, i) => `${before}${String(next + i).padStart(width, '0')}${after}`);
  }

  const traineeValues = (input: Partial<CreateTrainee>) => {
    const { customFields: _, traineeNo: __, ...rest } = input;
    return Object.fromEntries(
      Object.entries(rest).filter(([k, v]) => !personKeys.includes(k as keyof PersonInput) && v !== undefined),
    );
  };

  /** Trainees just written, as the writer may see them: each must stay within the writer's data scope. */
  async function inScope(tx: Tx, ids: string[], ctx: WriteContext): Promise<Trainee[]> {
    const narrow = await scoped(tx, ctx.actorId);
    const { rows } = await repo.list(tx, { page: null, sort: [], filters: [] }, (q) =>
      narrow(q.where('id', 'in', ids)),
    );
    if (rows.length !== ids.length) throw invalidField('trainingBaseId', texts[ctx.lang].outOfScope);
    const byId = new Map(rows.map((r) => [r.id, flatten(r)]));
    return ids.map((id) => byId.get(id) as Trainee);
  }

  /**
   * Trainees made together (an import's batch; a create is a batch of one): each checked as it comes (its type
   * enabled, its bases, its custom values, its number), their people found or made together (each not yet a trainee
   * of the type), then numbered per pattern in one go and written in one statement.
   */
  async function createMany(tx: Tx, inputs: CreateTrainee[], ctx: WriteContext): Promise<Trainee[]> {
    const t = texts[ctx.lang];
    const rows: Record<string, unknown>[] = [];
    const unnumbered = new Map<string, Record<string, unknown>[]>();
    for (const input of inputs) {
      const type = await typeOf(tx, input.traineeTypeId, ctx.lang);
      if (type.status !== 'enabled') throw invalidField('traineeTypeId', t.typeDisabled);
      if (!input.traineeNo && !type.trainee_no_pattern) throw invalidField('traineeNo', t.noPattern);
      await checkReferences(tx, input, ctx.lang);
      const customFields = await checkCustomValues(
        tx,
        { typeId: input.traineeTypeId },
        input.customFields ?? {},
        {},
        ctx.lang,
      );
      if (input.traineeNo) await checkNumber(tx, input.traineeNo, undefined, ctx.lang);
      const row: Record<string, unknown> = {
        ...traineeValues(input),
        traineeNo: input.traineeNo,
        customFields,
        registrationStatus: type.requires_registration_audit ? 'not_submitted' : 'approved',
      };
      rows.push(row);
      const pattern = input.traineeNo ? undefined : (type.trainee_no_pattern as string);
      if (pattern) unnumbered.set(pattern, [...(unnumbered.get(pattern) ?? []), row]);
    }
    const persons = await people.saveMany(
      tx,
      inputs.map((input) => pick(input, personKeys)),
      ctx,
      ctx.lang,
    );
    for (const [i, person] of persons.entries()) {
      const input = inputs[i] as CreateTrainee;
      (rows[i] as Record<string, unknown>).personId = person.id;
      // a person just made is no one's trainee yet; one found may already be of this type
      const taken =
        !person.made &&
        (await tx
          .selectFrom('trainee')
          .select('id')
          .where('person_id', '=', person.id)
          .where('trainee_type_id', '=', input.traineeTypeId)
          .executeTakeFirst());
      if (taken) throw invalidField('idNo', t.already);
    }
    for (const [pattern, waiting] of unnumbered) {
      const numbers = await nextNumbers(tx, pattern, waiting.length, ctx);
      waiting.forEach((row, i) => {
        row.traineeNo = numbers[i];
      });
    }
    const made = await repo.insertMany(tx, rows, ctx);
    return inScope(
      tx,
      made.map((r) => r.id),
      ctx,
    );
  }

  const create = async (tx: Tx, input: CreateTrainee, ctx: WriteContext) =>
    (await createMany(tx, [input], ctx))[0] as Trainee;

  const store: ResourceStore<Trainee, CreateTrainee, UpdateTrainee> = {
    /**
     * A page, and the size of the filtered set counted by a statement of its own (`countedList`): a count alone reads
     * an index, where a count beside the page (a window) would read every matching row for a page of twenty.
     */
    list: async (tx, query) => {
      const { rows, total } = await countedList(tx, repo, query, await narrowOf(tx, query, 'en-US'), false);
      return { rows: rows.map(flatten), total };
    },
    find,
    create,
    createMany: sameAsCreate(createMany, create),
    async update(tx, current, input, ctx) {
      if (IN_TRAINING.includes(current.status)) {
        // in training, the base changes by a request that is approved (baseChanges)
        const moved = (field: 'trainingBaseId' | 'specialtyBaseId') =>
          input[field] !== undefined && (input[field] ?? null) !== current[field];
        for (const field of ['trainingBaseId', 'specialtyBaseId'] as const)
          if (moved(field)) throw invalidField(field, texts[ctx.lang].byRequest);
      }
      await checkReferences(tx, input, ctx.lang);
      const customFields =
        input.customFields === undefined
          ? undefined
          : await checkCustomValues(
              tx,
              { typeId: current.traineeTypeId, self: current.id },
              input.customFields,
              current.customFields,
              ctx.lang,
            );
      if (input.traineeNo) await checkNumber(tx, input.traineeNo, current.id, ctx.lang);
      const person = pick(input, personKeys);
      const updated = await repo.update(
        tx,
        current.id,
        { ...traineeValues(input), traineeNo: input.traineeNo, customFields },
        ctx,
        input.version,
      );
      if (!updated) return undefined;
      if (Object.keys(person).length) await people.save(tx, person, current.personId, ctx, ctx.lang);
      return (await inScope(tx, [current.id], ctx))[0];
    },
    remove: async (tx, rows, ctx) => {
      await refuseWhileFiled(
        tx,
        'trainee',
        rows.map((r) => r.id),
      );
      await repo.remove(
        tx,
        rows.map((r) => r.id),
        ctx,
      );
    },
    findAllByKey: (tx, keys) => imports.findAllByKey(tx, keys),
    fromImport: (tx, record, existing, ctx) =>
      imports.fromImport(tx, record, existing, ctx.lang) as Promise<CreateTrainee | UpdateTrainee>,
  };

  const resource = createResourceService(
    traineeResource,
    store,
    deps,
    (tx, params) => imports.shape(tx, params),
    (tx, query, columns) => imports.exportColumns(tx, query, columns),
  );

  async function record(
    tx: Tx,
    ctx: WriteContext,
    trainee: Trainee,
    step: {
      kind: 'status' | 'registration' | 'base';
      from: string;
      to: string;
      level?: number;
      reason?: string;
      date?: string;
    },
  ) {
    await tx
      .insertInto('trainee_history')
      .values({
        tenant_id: ctx.tenantId,
        trainee_id: trainee.id,
        kind: step.kind,
        from_state: step.from,
        to_state: step.to,
        audit_level: step.level ?? null,
        reason: step.reason ?? null,
        effective_date: step.date ?? null,
        created_by: ctx.actorId,
      })
      .execute();
  }

  const today = (ctx: WriteContext) => ctx.now.toISOString().slice(0, 10);

  /** One move of the lifecycle, if the trainee's status allows it (entering training needs an approved registration). */
  async function move(tx: Tx, ctx: WriteContext, row: Trainee, input: Omit<TransitionTrainee, 'version'>) {
    if (!nextStatuses(row).includes(input.to))
      throw new AppError('trainee.transitionNotAllowed', { from: row.status, to: input.to });
    await repo.update(
      tx,
      row.id,
      {
        status: input.to,
        ...(ENDING.includes(input.to) && { actualEnd: input.effectiveDate }),
        ...(input.to === 'in_training' && !row.trainingStart && { trainingStart: input.effectiveDate }),
      },
      ctx,
    );
    await record(tx, ctx, row, {
      kind: 'status',
      from: row.status,
      to: input.to,
      reason: input.reason,
      date: input.effectiveDate,
    });
    return (await find(tx, row.id)) as Trainee;
  }

  /** Whether the actor holds the role of `code` (a level of the registration audit). */
  async function holdsRole(tx: Tx, ctx: WriteContext, code: string) {
    const row = await tx
      .selectFrom('user_role')
      .innerJoin('role', 'role.id', 'user_role.role_id')
      .select('role.id')
      .where('user_role.user_id', '=', ctx.actorId)
      .where('role.code', '=', code)
      .where('role.deleted_at', 'is', null)
      .executeTakeFirst();
    return Boolean(row);
  }

  /** A decision at the registration's current level: the last approval admits the trainee into training. */
  async function decide(tx: Tx, ctx: WriteContext, row: Trainee, input: Omit<AuditTrainee, 'version'>) {
    if (row.registrationStatus !== 'pending') throw new AppError('trainee.notPending');
    const type = await typeOf(tx, row.traineeTypeId, ctx.lang);
    const level = type.auditLevels[row.auditLevel];
    if (!level) throw new AppError('trainee.notPending');
    if (!(await holdsRole(tx, ctx, level))) throw new AppError('trainee.notYourLevel', { level });
    const last = row.auditLevel + 1 >= type.auditLevels.length;
    const to = input.decision === 'reject' ? 'rejected' : last ? 'approved' : 'pending';
    await repo.update(
      tx,
      row.id,
      { registrationStatus: to, auditLevel: input.decision === 'reject' ? 0 : row.auditLevel + 1 },
      ctx,
    );
    await record(tx, ctx, row, {
      kind: 'registration',
      from: `${row.registrationStatus}`,
      to: input.decision === 'approve' ? `approved:${level}` : `rejected:${level}`,
      level: row.auditLevel + 1,
      reason: input.comment,
      date: today(ctx),
    });
    if (to !== 'pending')
      await notify(tx, deps.jobs, {
        businessItemCode: `trainee.registration.${to}`,
        to: { type: 'trainee', ids: [row.id] },
        params: { traineeName: row.name, comment: input.comment ?? '' },
        bizRef: { type: 'trainee', id: row.id },
        actorId: ctx.actorId,
      });
    const after = (await find(tx, row.id)) as Trainee;
    if (to === 'approved' && after.status === 'applied')
      return move(tx, ctx, after, { to: 'in_training', reason: input.comment || level, effectiveDate: today(ctx) });
    return after;
  }

  const fresh = (row: Trainee, version: number) => {
    if (row.version !== version) throw versionConflict();
  };

  /** Each of `ids`, changed by `work` and audited, in one transaction: all of them or none. */
  async function each(
    ctx: WriteContext,
    ids: string[],
    action: string,
    work: (tx: Tx, row: Trainee) => Promise<Trainee>,
  ) {
    return deps.tenancy.inTenant(ctx.tenantId, async (tx) => {
      const done: Trainee[] = [];
      for (const id of new Set(ids)) {
        const before = await find(tx, id, ctx.actorId);
        if (!before) throw notFound();
        const after = await work(tx, before);
        await resource.audit(tx, ctx, action, before, after);
        done.push(after);
      }
      return done;
    });
  }

  return {
    resource,

    transition: (ctx: WriteContext, id: string, { version, ...input }: TransitionTrainee) =>
      resource.act(ctx, id, 'change-status', async (tx, row) => {
        fresh(row, version);
        return move(tx, ctx, row, input);
      }),

    transitionMany: (ctx: WriteContext, { ids, ...input }: TransitionTrainees) =>
      each(ctx, ids, 'change-status', (tx, row) => move(tx, ctx, row, input)),

    /** Sends a registration to the first level of its type's audit. */
    submit: (ctx: WriteContext, id: string, version: number) =>
      resource.act(ctx, id, 'audit', async (tx, row) => {
        fresh(row, version);
        const type = await typeOf(tx, row.traineeTypeId, ctx.lang);
        if (!['not_submitted', 'rejected'].includes(row.registrationStatus) || type.auditLevels.length === 0)
          throw new AppError('trainee.transitionNotAllowed', { from: row.registrationStatus, to: 'pending' });
        await repo.update(tx, row.id, { registrationStatus: 'pending', auditLevel: 0 }, ctx);
        await record(tx, ctx, row, { kind: 'registration', from: row.registrationStatus, to: 'pending' });
        return (await find(tx, row.id)) as Trainee;
      }),

    audit: (ctx: WriteContext, id: string, { version, ...input }: AuditTrainee) =>
      resource.act(ctx, id, 'audit', async (tx, row) => {
        fresh(row, version);
        return decide(tx, ctx, row, input);
      }),

    auditMany: (ctx: WriteContext, { ids, ...input }: AuditTrainees) =>
      each(ctx, ids, 'audit', (tx, row) => decide(tx, ctx, row, input)),

    /** One tutor for several trainees (or none): all of them or none, each within the actor's data scope. */
    assignTutor: (ctx: WriteContext, { ids, tutorDoctorId }: AssignTutor) =>
      each(ctx, ids, 'assign-tutor', async (tx, row) => {
        if (tutorDoctorId) await checkTutor(tx, tutorDoctorId, ctx.lang);
        await repo.update(tx, row.id, { tutorDoctorId }, ctx);
        return (await find(tx, row.id)) as Trainee;
      }),

    reveal: idNumberRevealer<Trainee>(deps.idNumbers, resource),

    baseChanges: traineeBaseChanges({
      tenancy: deps.tenancy,
      find,
      inScope,
      act: resource.act,
      moveTo: async (tx, row, bases, ctx) => {
        await repo.update(tx, row.id, bases, ctx);
      },
      record,
    }),

    history: (tenantId: string, id: string, viewer: string): Promise<TraineeHistory[]> =>
      deps.tenancy.inTenant(tenantId, async (tx) => {
        if (!(await find(tx, id, viewer))) throw notFound();
        const rows = await tx
          .selectFrom('trainee_history as h')
          .leftJoin('admin_user as u', 'u.id', 'h.created_by')
          .select([
            'h.id',
            'h.kind',
            'h.from_state',
            'h.to_state',
            'h.audit_level',
            'h.reason',
            'h.effective_date',
            'h.created_at',
            'h.created_by',
            'u.display_name',
          ])
          .where('h.trainee_id', '=', id)
          .orderBy('h.id', 'desc')
          .execute();
        return rows.map((r) => ({
          id: String(r.id),
          kind: r.kind,
          fromState: r.from_state,
          toState: r.to_state,
          auditLevel: r.audit_level,
          reason: r.reason,
          effectiveDate: r.effective_date,
          createdAt: new Date(r.created_at).toISOString(),
          createdBy: r.created_by === null ? null : String(r.created_by),
          createdByName: r.display_name ?? null,
        }));
      }),

    /** Trainees of each type of the tenant by status (types without trainees too). */
    counts: (tenantId: string, viewer: string): Promise<TraineeCounts> =>
      deps.tenancy.inTenant(tenantId, async (tx) => {
        const scope = await dataScopeOf(tx, viewer);
        const rows = await tx
          .selectFrom('trainee_type as t')
          .leftJoin('trainee as r', (join) =>
            join.onRef('r.trainee_type_id', '=', 't.id').on(inDataScope(scope, bases, 'r')),
          )
          .select(['t.id', 't.name', 'r.status', sql<string>`count(r.id)`.as('n')])
          .groupBy(['t.id', 't.name', 't.sort', 't.code', 'r.status'])
          .orderBy('t.sort')
          .orderBy('t.code')
          .execute();
        const types = new Map<string, TraineeCounts[number]>();
        for (const r of rows) {
          const id = String(r.id);
          const entry = types.get(id) ?? { traineeTypeId: id, traineeTypeName: r.name, total: 0, byStatus: {} };
          types.set(id, entry);
          if (r.status) {
            entry.byStatus[r.status] = Number(r.n);
            entry.total += Number(r.n);
          }
        }
        return [...types.values()];
      }),
  };
}

export type TraineeService = ReturnType<typeof createTraineeService>;
