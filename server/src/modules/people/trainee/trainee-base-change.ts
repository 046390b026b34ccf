import { sql } from 'kysely';
import { AppError, invalidField, notFound, versionConflict } from '../../../core/errors';
import type { Lang } from '../../../core/i18n';
import type { WriteContext } from '../../../core/resource/resource';
import type { Tenancy, Tx } from '../../../core/tenancy';
import {
  type DecideBaseChange,
  IN_TRAINING,
  type RequestBaseChange,
  type Trainee,
  type TraineeBaseChange,
} from './trainee.resource';

const texts = {
  'zh-CN': { sameBase: '已在该基地', noBase: '须为培训基地', noSpecialtyBase: '须为专业基地' },
  'en-US': {
    sameBase: 'is where the trainee already is',
    noBase: 'must be a training base',
    noSpecialtyBase: 'must be a specialty base',
  },
};

/** What a change of base needs of the trainees' service: its rows, scope, history and audited actions. */
interface TraineeParts {
  tenancy: Tenancy;
  find(tx: Tx, id: string, viewer?: string): Promise<Trainee | undefined>;
  /** The trainee as the writer may see it after a write (refused on `trainingBaseId` when outside the scope). */
  inScope(tx: Tx, ids: string[], ctx: WriteContext): Promise<Trainee[]>;
  act(
    ctx: WriteContext,
    id: string,
    action: string,
    work: (tx: Tx, row: Trainee) => Promise<Trainee>,
    note?: string,
  ): Promise<Trainee>;
  moveTo(
    tx: Tx,
    row: Trainee,
    bases: { trainingBaseId: string; specialtyBaseId: string | null },
    ctx: WriteContext,
  ): Promise<void>;
  record(
    tx: Tx,
    ctx: WriteContext,
    trainee: Trainee,
    step: { kind: 'base'; from: string; to: string; reason: string; date: string },
  ): Promise<void>;
}

/** The name of an organisation, for the history (the id may go; the name stays). */
const nameOf = async (tx: Tx, id: string | null) =>
  id ? (await tx.selectFrom('organization').select('name').where('id', '=', id).executeTakeFirst())?.name : undefined;

/** `training base / specialty base`, as the history shows where a trainee was and went. */
const place = (base: string | undefined, specialty: string | undefined) =>
  [base ?? '-', specialty].filter(Boolean).join(' / ');

/**
 * A trainee in training changes training base (and specialty base) by a request with its reason and date (docs/domain.md
 * §4.9), at most one awaiting a decision; approving it moves the trainee (the decider must see them at their new
 * base) and keeps the move in the trainee's history; rejecting it leaves them where they are. Before admission the
 * base is edited as any field.
 */
export function traineeBaseChanges(parts: TraineeParts) {
  async function checkTarget(tx: Tx, field: string, id: string, orgType: string, message: string) {
    const org = await tx.selectFrom('organization').select('org_type').where('id', '=', id).executeTakeFirst();
    if (org?.org_type !== orgType) throw invalidField(field, message);
  }

  async function pendingOf(tx: Tx, traineeId: string) {
    return tx
      .selectFrom('trainee_base_change')
      .selectAll()
      .where('trainee_id', '=', traineeId)
      .where('status', '=', 'pending')
      .executeTakeFirst();
  }

  return {
    request: (ctx: WriteContext, id: string, { version, ...body }: RequestBaseChange) =>
      parts.act(
        ctx,
        id,
        'change-base',
        async (tx, row) => {
          const t = texts[ctx.lang as Lang];
          if (row.version !== version) throw versionConflict();
          if (!IN_TRAINING.includes(row.status)) throw new AppError('trainee.notChangingBase', { status: row.status });
          const toSpecialty = body.toSpecialtyBaseId ?? null;
          await checkTarget(tx, 'toTrainingBaseId', body.toTrainingBaseId, 'training_base', t.noBase);
          if (toSpecialty) await checkTarget(tx, 'toSpecialtyBaseId', toSpecialty, 'specialty_base', t.noSpecialtyBase);
          if (body.toTrainingBaseId === row.trainingBaseId && toSpecialty === row.specialtyBaseId)
            throw invalidField('toTrainingBaseId', t.sameBase);
          if (await pendingOf(tx, row.id)) throw new AppError('trainee.baseChangePending');
          await tx
            .insertInto('trainee_base_change')
            .values({
              tenant_id: ctx.tenantId,
              trainee_id: row.id,
              from_training_base_id: row.trainingBaseId,
              from_specialty_base_id: row.specialtyBaseId,
              to_training_base_id: body.toTrainingBaseId,
              to_specialty_base_id: toSpecialty,
              reason: body.reason,
              effective_date: body.effectiveDate,
              created_by: ctx.actorId,
            })
            .execute();
          return row;
        },
        body.reason,
      ),

    decide: (ctx: WriteContext, id: string, { decision, comment, version }: DecideBaseChange) =>
      parts.act(
        ctx,
        id,
        'change-base',
        async (tx, row) => {
          if (row.version !== version) throw versionConflict();
          const pending = await pendingOf(tx, row.id);
          if (!pending) throw new AppError('trainee.noBaseChangePending');
          if (decision === 'approve') {
            const t = texts[ctx.lang as Lang];
            const to = {
              trainingBaseId: String(pending.to_training_base_id),
              specialtyBaseId: pending.to_specialty_base_id === null ? null : String(pending.to_specialty_base_id),
            };
            // the bases named may have changed since the request
            await checkTarget(tx, 'toTrainingBaseId', to.trainingBaseId, 'training_base', t.noBase);
            if (to.specialtyBaseId)
              await checkTarget(tx, 'toSpecialtyBaseId', to.specialtyBaseId, 'specialty_base', t.noSpecialtyBase);
            await parts.moveTo(tx, row, to, ctx);
            await parts.record(tx, ctx, row, {
              kind: 'base',
              from: place(row.trainingBaseName ?? undefined, row.specialtyBaseName ?? undefined),
              to: place(await nameOf(tx, to.trainingBaseId), await nameOf(tx, to.specialtyBaseId)),
              reason: pending.reason,
              date: pending.effective_date,
            });
          }
          await tx
            .updateTable('trainee_base_change')
            .set({
              status: decision === 'approve' ? 'approved' : 'rejected',
              decided_by: ctx.actorId,
              decided_at: ctx.now,
              decision_comment: comment || null,
              updated_at: ctx.now,
              updated_by: ctx.actorId,
              version: sql`version + 1`,
            })
            .where('id', '=', pending.id)
            .execute();
          return (await parts.inScope(tx, [row.id], ctx))[0] as Trainee;
        },
        comment || decision,
      ),

    /** The trainee's requests, newest first, with the bases' names and who asked and decided. */
    list: (tenantId: string, id: string, viewer: string): Promise<TraineeBaseChange[]> =>
      parts.tenancy.inTenant(tenantId, async (tx) => {
        if (!(await parts.find(tx, id, viewer))) throw notFound();
        const org = (column: string) =>
          sql<string | null>`(SELECT o.name FROM organization o WHERE o.id = ${sql.ref(column)})`;
        const rows = await tx
          .selectFrom('trainee_base_change as c')
          .leftJoin('admin_user as asker', 'asker.id', 'c.created_by')
          .leftJoin('admin_user as decider', 'decider.id', 'c.decided_by')
          .select([
            'c.id',
            'c.to_training_base_id',
            'c.reason',
            'c.effective_date',
            'c.status',
            'c.decision_comment',
            'c.decided_at',
            'c.created_at',
            'asker.display_name as asker',
            'decider.display_name as decider',
            org('c.from_training_base_id').as('from_base'),
            org('c.from_specialty_base_id').as('from_specialty'),
            org('c.to_training_base_id').as('to_base'),
            org('c.to_specialty_base_id').as('to_specialty'),
          ])
          .where('c.trainee_id', '=', id)
          .orderBy('c.id', 'desc')
          .execute();
        return rows.map((r) => ({
          id: String(r.id),
          fromTrainingBaseName: r.from_base,
          fromSpecialtyBaseName: r.from_specialty,
          toTrainingBaseId: String(r.to_training_base_id),
          toTrainingBaseName: r.to_base,
          toSpecialtyBaseName: r.to_specialty,
          reason: r.reason,
          effectiveDate: r.effective_date,
          status: r.status,
          decisionComment: r.decision_comment,
          decidedByName: r.decider ?? null,
          decidedAt: r.decided_at ? new Date(r.decided_at).toISOString() : null,
          createdByName: r.asker ?? null,
          createdAt: new Date(r.created_at).toISOString(),
        }));
      }),
  };
}
