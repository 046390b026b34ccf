import type {
  CreateOrganization,
  MoveOrganization,
  Organization,
  OrganizationNode,
  UpdateOrganization,
} from '@server/modules/people/organization/organization.resource';
import { resourceService } from '@/services/resource';
import request, { type Options } from '@/utils/request';

export type { OrganizationNode };

export const organizations = resourceService<Organization, CreateOrganization, UpdateOrganization>(
  'people/organization',
);

/** One level of the tree: the roots, or the children of `parentId`. */
export const fetchOrganizationLevel = (parentId?: string) =>
  request.get<OrganizationNode[]>('/api/people/organization/tree', { params: parentId ? { parentId } : {} });

/** Moves a node and its subtree under another parent (null: to the top). */
export const moveOrganization = (id: string, body: MoveOrganization, options?: Options) =>
  organizations.action<Organization>(id, 'move', body, options);
