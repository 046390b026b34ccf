import type { Principal } from '../../../core/context';
import type { PermissionCode } from '../../../core/route';
import type { Tenancy, Tx } from '../../../core/tenancy';
import * as repo from './workspace.repository';
import type { Workspace, WorkspaceCard } from './workspace.schema';

const DAY_MS = 24 * 3600_000;
/** How far back the sign-in counts look. */
export const SIGN_IN_WINDOW_DAYS = 7;
const ACTIVITY_LIMIT = 10;

interface CardDefinition {
  key: string;
  /** The list code the caller needs: the card counts what that list would show them. */
  permission: PermissionCode;
  path: string;
  count: (tx: Tx, now: Date) => Promise<number>;
}

/** The workspace's cards; an area adds its own here. */
const cards: CardDefinition[] = [
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

export function createWorkspaceService(deps: { tenancy: Tenancy; now: () => Date }) {
  return {
    /** What the caller can act on in their tenant, and what they did last. */
    get(principal: Principal): Promise<Workspace> {
      const now = deps.now();
      return deps.tenancy.inTenant(principal.tenantId, async (tx) => {
        const shown: WorkspaceCard[] = [];
        for (const card of cards.filter((c) => principal.permissions.has(c.permission))) {
          shown.push({ key: card.key, path: card.path, count: await card.count(tx, now) });
        }
        return { cards: shown, activity: await repo.recentActivity(tx, principal.userId, ACTIVITY_LIMIT) };
      });
    },
  };
}
