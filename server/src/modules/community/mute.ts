import { sql } from 'kysely';
import { AppError } from '../../core/errors';
import type { WriteContext } from '../../core/resource/resource';
import type { Tx } from '../../core/tenancy';
import type { Id as IdColumn, Nullable, Ref } from '../../db/types';
import type { AuthorType } from './post/post.resource';

interface CommunityMuteTable {
  id: IdColumn;
  tenant_id: Ref;
  author_type: AuthorType;
  author_id: Ref;
  muted_until: Date | string;
  case_id: Nullable<Ref>;
  created_at: Date | string;
  created_by: Nullable<Ref>;
}
declare module '../../db/types' {
  interface DB {
    community_mute: CommunityMuteTable;
  }
}

/** An author suspended from writing in the community (posts, replies, reports) until `until`, by a report case. */
export async function muteAuthor(
  tx: Tx,
  ctx: WriteContext,
  author: { type: AuthorType; id: string },
  until: Date,
  caseId: string,
) {
  await tx
    .insertInto('community_mute')
    .values({
      tenant_id: ctx.tenantId,
      author_type: author.type,
      author_id: author.id,
      muted_until: until,
      case_id: caseId,
      created_at: ctx.now,
      created_by: ctx.actorId,
    })
    .execute();
}

/** The console's user writes as an `admin` author: refused (403) while a suspension of theirs runs. */
export async function refuseMuted(tx: Tx, ctx: WriteContext) {
  const mute = await tx
    .selectFrom('community_mute')
    .select(sql<string>`to_char(max(muted_until) AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI "UTC"')`.as('until'))
    .where('author_type', '=', 'admin')
    .where('author_id', '=', ctx.actorId)
    .where('muted_until', '>', ctx.now)
    .executeTakeFirst();
  if (mute?.until) throw new AppError('community.muted', { until: mute.until });
}
