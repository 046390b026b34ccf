// @dva-model
import type { ErrCode, SysCode } from '@server/modules/dictionary/catalog/catalog.schema';
import { DEFAULT_TOKEN_TYPE } from '@/constants';

export type { ErrCode, SysCode };

export interface Token {
  accessToken: string;
  refreshToken: string;
  type: string;
}

export interface UserInfo {
  userName: string;
  permissions: string[];
  token: string;
}

export interface Tab {
  path: string;
  /** i18n id: the route's menu title, or the entity's name on a record's tab. */
  title: string;
  /** The record a profile or edit tab shows (`管理员 · 张三`). */
  name?: string;
}

export interface RootState {
  appSettings: Record<string, unknown>;
  userInfo: UserInfo;
  tenantId: string;
  orgId: string;
  collapsed: boolean;
  curTab: Tab[];
  lastActiveTabPath: string;
  theme: string;
  reloadPath: string;
  token: Token | Record<string, never>;
  clientType: string;
  sysCodes: SysCode[];
  errCodes: ErrCode[];
}

export const initialRootState: RootState = {
  appSettings: {},
  userInfo: { userName: '', permissions: [], token: '' },
  tenantId: '',
  orgId: '',
  collapsed: false,
  curTab: [],
  lastActiveTabPath: '',
  theme: 'light',
  reloadPath: 'null',
  token: { accessToken: '', refreshToken: '', type: DEFAULT_TOKEN_TYPE },
  clientType: '',
  sysCodes: [],
  errCodes: [],
};

/** Each SET_* action replaces exactly one field of the state with its payload (spec.md §3). */
export const ACTION_FIELDS = {
  SET_USERINFO: 'userInfo',
  SET_TOKEN: 'token',
  SET_SYSCODE: 'sysCodes',
  SET_APP_SETTINGS: 'appSettings',
  SET_ORGANIZATION_ID: 'orgId',
  SET_TENANT_ID: 'tenantId',
  SET_CLIENT_TYPE: 'clientType',
  SET_ERRCODE: 'errCodes',
  SET_COLLAPSED: 'collapsed',
  SET_CURTAB: 'curTab',
  SET_LAST_ACTIVE_TABPATH: 'lastActiveTabPath',
  SET_THEME: 'theme',
  SET_RELOADPATH: 'reloadPath',
} as const satisfies Record<string, keyof RootState>;

export type RootActionType = keyof typeof ACTION_FIELDS;
export const NAMESPACE = 'root';

type Reducer = (state: RootState, action: { type: string; payload?: unknown }) => RootState;

const setField =
  (field: keyof RootState): Reducer =>
  (state, { payload }) => ({ ...state, [field]: payload });

export default {
  namespace: NAMESPACE,
  state: initialRootState,
  reducers: Object.fromEntries(Object.entries(ACTION_FIELDS).map(([type, field]) => [type, setField(field)])) as Record<
    RootActionType,
    Reducer
  >,
};
