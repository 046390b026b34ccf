import type { Principal } from '../../../core/context';
import type { Lang } from '../../../core/i18n';
import type { PermissionCode } from '../../../core/route';
import type { Tenancy, Tx } from '../../../core/tenancy';
import { scopedTo } from '../../people/organization/data-scope';
import { TRAINEE_BASES } from '../../people/trainee/trainee.scope';
import { resources } from '../../registry';
import {
  type CardContext,
  screenPath,
  TRAINEES_IN_TRAINING,
  trainingCards,
  type WorkspaceSources,
} from './workspace.cards';
import * as repo from './workspace.repository';
import type { Workspace, WorkspaceCard, WorkspaceImport, WorkspacePoint } from './workspace.schema';

const DAY_MS = 24 * 3600_000;
const MINUTE_MS = 60_000;
/** How far back the sign-in counts look. */
export const SIGN_IN_WINDOW_DAYS = 7;
const ACTIVITY_LIMIT = 10;
const IMPORT_LIMIT = 5;

interface CardDefinition {
  key: string;
  /** The list code the caller needs: the card counts what that list would show them. */
  permission: PermissionCode;
  path: string;
  count: (tx: Tx, now: Date) => Promise<number>;
}

/** The security cards of whoever administers the accounts. */
const securityCards: CardDefinition[] = [
  { key: 'accounts', permission: 'system:admin:list', path: '/system/admin', count: repo.countAccounts },
  { key: 'lockedAccounts', permission: 'system:admin:list', path: '/system/admin', count: repo.countLockedAccounts },
  { key: 'roles', permission: 'system:role:list', path: '/system/role', count: repo.countRoles },
  {
    key: 'signIns',
    permission: 'system:admin:list',
    path: '/system/admin',
    count: (tx, now) => repo.countSignIns(tx, new Date(now.getTime() - SIGN_IN_WINDOW_DAYS * DAY_MS), 'success'),
  },
  {
    key: 'signInFailures',
    permission: 'system:admin:list',
    path: '/system/admin',
    count: (tx, now) => repo.countSignIns(tx, new Date(now.getTime() - SIGN_IN_WINDOW_DAYS * DAY_MS), 'failure'),
  },
];

/** The caller's today (`utcOffset` minutes east of UTC) as a `from,to` range of instants. */
export function todayRange(now: Date, utcOffset: number): string {
  const local = new Date(now.getTime() + utcOffset * MINUTE_MS);
  const start = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()) - utcOffset * MINUTE_MS;
  return `${new Date(start).toISOString()},${new Date(start + DAY_MS).toISOString()}`;
}

/** What each imported resource's import and list codes are, by its API path. */
const importable = new Map(
  Object.values(resources).map(({ definition }) => [definition.path, definition.permission] as const),
);

export interface WorkspaceRequest {
  lang: Lang;
  utcOffset: number;
  sources: WorkspaceSources;
}

export function createWorkspaceService(deps: { tenancy: Tenancy; now: () => Date }) {
  /** In training by specialty base and by cohort, each part a link to its trainees. */
  const traineeSeries = (principal: Principal) =>
    deps.tenancy.inTenant(principal.tenantId, async (tx) => {
      const narrow = await scopedTo(tx, principal.userId, TRAINEE_BASES, 'trainee');
      const part = (filter: string, key: string | null) =>
        key === null ? null : screenPath('/trainee/list', { ...TRAINEES_IN_TRAINING, [filter]: key });
      const points = (tallies: repo.Tally[], filter: string): WorkspacePoint[] =>
        tallies.map((t) => ({ ...t, path: part(filter, t.key) }));
      return [
        {
          key: 'byBase',
          points: points(await repo.traineesInTrainingBy(tx, narrow, 'specialty_base_id'), 'specialtyBaseId'),
        },
        { key: 'byCohort', points: points(await repo.traineesInTrainingBy(tx, narrow, 'cohort_year'), 'cohortYear') },
      ];
    });

  return {
    /** What the caller can act on in their tenant, and what they did last. */
    async get(principal: Principal, request: WorkspaceRequest): Promise<Workspace> {
      const now = deps.now();
      const ctx: CardContext = { principal, lang: request.lang, sources: request.sources, today: '' };
      ctx.today = todayRange(now, request.utcOffset);
      const cards: WorkspaceCard[] = [];
      for (const card of trainingCards.filter((c) => principal.permissions.has(c.permission))) {
        const filter = card.filter(ctx);
        const shown: WorkspaceCard = {
          key: card.key,
          path: screenPath(card.screen, filter),
          ...(await card.compute(ctx, filter)),
        };
        if (card.key === 'traineesInTraining') shown.series = await traineeSeries(principal);
        cards.push(shown);
      }
      const imported = [...importable].filter(([, prefix]) => principal.permissions.has(`${prefix}:import`));
      return deps.tenancy.inTenant(principal.tenantId, async (tx) => {
        for (const card of securityCards.filter((c) => principal.permissions.has(c.permission))) {
          cards.push({ key: card.key, path: card.path, count: await card.count(tx, now) });
        }
        const prefixes = new Map(imported);
        const imports: WorkspaceImport[] = (
          await repo.recentImports(
            tx,
            imported.map(([path]) => path),
            IMPORT_LIMIT,
          )
        ).map((job) => ({
          ...job,
          status: job.status as WorkspaceImport['status'],
          listPermission: `${prefixes.get(job.resource)}:list`,
        }));
        return { cards, imports, activity: await repo.recentActivity(tx, principal.userId, ACTIVITY_LIMIT) };
      });
    },
  };
}
