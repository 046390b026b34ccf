import type { ProColumns } from '@ant-design/pro-components';
import type { PermissionPrefix } from '@server/db/seed/permissions';
import type { ReactNode } from 'react';
import type { Access, PermissionCode } from '@/access';

/** A column as the list, its search form and the create/edit form read it (ProComponents' column shape). */
export type ListColumn<Row> = ProColumns<Row> & Pick<ResourceColumn<Row>, 'searchField'>;

/**
 * One column of a descriptor: a ProTable column whose title is an i18n id and whose enum comes from
 * a dictionary type of `sysCodes`. The same columns feed the table, its search form, the create/edit
 * form (only the fields the descriptor's `form` lists) and the profile.
 */
export type ResourceColumn<Row> = Omit<ProColumns<Row>, 'title' | 'valueEnum' | 'hideInDescriptions'> & {
  /** i18n id of the title. */
  titleId: string;
  /** Dictionary type: labels and tag colours from sysCodes in the current locale. */
  dict?: string;
  /** Not one of the profile's fields; or not for this record (a field its kind has not, a chapter's file). */
  hideInDescriptions?: boolean | ((record: Row) => boolean);
  /** Only a search field (keyword, a date range): hidden in table, form and profile. */
  searchOnly?: boolean;
  /** A fixed set of values the API defines (not a dictionary): labels are i18n ids, colours antd tag colours. */
  options?: { value: string | number; labelId: string; color?: string }[];
  /** A form field this record may not change (e.g. the module of a built-in error code): shown disabled. */
  formDisabled?: (record: Row | undefined) => boolean;
  /**
   * Its field in the list's search form, where a text box would ask for an id (a tree, a picker); it is given the
   * form item's `value` and `onChange`.
   */
  searchField?: (props: { value?: unknown; onChange?: (value: unknown) => void }) => ReactNode;
};

export interface ResourceDescriptor<
  Row extends { id: string; version: number },
  Create = Partial<Row>,
  Update = Partial<Row>,
> {
  /** URL segment under /api (plural kebab-case), as the server's resource definition. */
  resource: string;
  /** `resource_type` of its audit rows (the profile's timeline). */
  auditType: string;
  permission: PermissionPrefix;
  /** i18n id of the entity's name (used in form titles). */
  titleId: string;
  columns: ResourceColumn<Row>[];
  /** Exactly the fields each form sends; everything else in `columns` is not a form field. */
  form: { create: (keyof Create & string)[]; update: (keyof Update & string)[] };
  rowKey?: keyof Row & string;
  /** Profile route of a row, e.g. `(row) => \`/system/admin/${row.id}/profile\``. */
  profile?: (row: Row) => string;
  /** The form's container; a long form is better in a drawer. */
  formLayout?: 'ModalForm' | 'DrawerForm';
  /**
   * A form too big for a dialog has a screen of its own (a question's step form): create and edit open its route
   * (`undefined`: a new record) instead of the descriptor's form.
   */
  formPage?: (row?: Row) => string;
  /** Button codes that differ from `<permission>:<action>` (e.g. dictionary items: `dictionary:syscode:item-create`). */
  actions?: Partial<Record<keyof ReturnType<typeof codes>, PermissionCode>>;
  /** Rows the API refuses to change (built-in, system, another owner's): their edit or delete is not offered. */
  allows?: (row: Row, action: 'update' | 'delete', access: Access) => boolean;
  /**
   * The record's name in titles (its profile's tab, `管理员 · 张三`; its edit dialog), when its `name`, `displayName`,
   * `label`, `title`, `userName` or `code` does not say it.
   */
  recordName?: (row: Row) => string;
  /**
   * i18n id of why a row `allows` refuses is locked (its lock icon's tooltip); or one for each action, when they are
   * refused for different reasons (the edit's shows when both are).
   */
  lockReasonId?: string | { update: string; delete: string };
  /** Rows owned by the platform (global dictionaries): only its operators are offered create, import, edit, delete. */
  platformOwned?: boolean;
  /** Records made elsewhere (messages, by a send): nobody is offered create, import, edit or delete. */
  readOnly?: boolean;
  /** An import that only adds records (a sheet's row never updates one: a question's duplicate is refused). */
  importAddsOnly?: boolean;
}

/**
 * A descriptor of `Row`, whatever bodies it sends: what the generic screens take. (`keyof never` is every key, so
 * any descriptor of the row fits.)
 */
export type RowDescriptor<Row extends { id: string; version: number }> = ResourceDescriptor<Row, never, never>;

/** What a column says besides its field; `required` marks a field the server requires (its message shows there). */
export type ColumnOptions<Row> = Partial<ResourceColumn<Row>> & { required?: boolean };

/**
 * The columns of one entity, each titled `<titles>.<field>` unless it says otherwise:
 * `const column = columnsOf<Role>('system.role')`, then `column('code', { sorter: true, required: true })`.
 */
export const columnsOf =
  <Row>(titles: string) =>
  (dataIndex: string, { required, ...options }: ColumnOptions<Row> = {}): ResourceColumn<Row> => ({
    dataIndex,
    titleId: `${titles}.${dataIndex}`,
    ...(required ? { formItemProps: { rules: [{ required: true }] } } : {}),
    ...options,
  });

/** `area/entity` for each permission prefix `area:entity`: an entity's one name. */
export type EntityName<P extends string = PermissionPrefix> = P extends `${infer Area}:${infer Entity}`
  ? `${Area}/${Entity}`
  : never;

/** A descriptor without what its name says. */
export type DescriptorBody<Row extends { id: string; version: number }, Create, Update> = Omit<
  ResourceDescriptor<Row, Create, Update>,
  'resource' | 'permission' | 'titleId'
>;

/**
 * An entity declared by its one name (docs/architecture.md, "Names"): `system/role` is its API path, its permission
 * prefix `system:role` and its titles `system.role.*` (the entity's own `system.role.entity`). A resource under a
 * longer path, or titles under another name, say so in `names`.
 */
export function describeResource<Row extends { id: string; version: number }, Create, Update>(
  name: EntityName,
  body: (column: ReturnType<typeof columnsOf<Row>>) => DescriptorBody<Row, Create, Update>,
  names: { resource?: string; titles?: string } = {},
): ResourceDescriptor<Row, Create, Update> {
  const titles = names.titles ?? name.replace('/', '.');
  return {
    resource: names.resource ?? name,
    permission: name.replace('/', ':') as PermissionPrefix,
    titleId: `${titles}.entity`,
    ...body(columnsOf<Row>(titles)),
  };
}

const ACTIONS = ['list', 'create', 'update', 'delete', 'export', 'import'] as const;

/**
 * Button codes of a descriptor. An action the manifest does not grant under the prefix (a client's import) names a
 * code nobody holds, so its button is never offered.
 */
export const codes = (permission: PermissionPrefix) =>
  Object.fromEntries(ACTIONS.map((action) => [action, `${permission}:${action}`])) as Record<
    (typeof ACTIONS)[number],
    PermissionCode
  >;
