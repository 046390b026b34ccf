import { OAUTH_CLIENT_ID } from '@/constants';
import type { ErrCode, SysCode } from '@/models/root';
import request, { type Options } from '@/utils/request';

export interface TokenAnswer {
  access_token: string;
  refresh_token: string;
  token_type: string;
  expires_in: number;
  refresh_expires_in: number;
}

export interface CurrentUser {
  userId: string;
  userName: string;
  displayName: string;
  email?: string | null;
  mobile?: string | null;
  version: number;
  permissions: string[];
  roles: { code: string; name: string }[];
  tenant: { id: string; code: string; name: string };
  orgId: string | null;
  clientType: string;
  /** An initial password someone else chose: the console asks for a new one before anything else. */
  mustChangePassword: boolean;
}

export interface SignInForm {
  tenant: string;
  username: string;
  password: string;
}

export type AppSettings = Record<string, unknown>;

export const signIn = (form: SignInForm) =>
  request.post<TokenAnswer>('/api/auth/token', {
    data: { grant_type: 'password', client_id: OAUTH_CLIENT_ID, ...form },
    skipAuth: true,
  });

export const signOut = () => request.post<void>('/api/auth/logout', { skipErrorHandler: true });

export const fetchMe = (options?: Options) => request.get<CurrentUser>('/api/auth/me', options);

export const updateMe = (
  data: { displayName: string; email?: string; mobile?: string; version: number },
  options?: Options,
) => request.put<CurrentUser>('/api/auth/me', { ...options, data });

export const changePassword = (data: { currentPassword: string; newPassword: string }, options?: Options) =>
  request.post<void>('/api/auth/password', { ...options, data });

export const fetchPublicSettings = (tenant?: string) =>
  request.get<AppSettings>('/api/system/settings/public', { params: tenant ? { tenant } : {} });

export const fetchSysCodes = () => request.get<SysCode[]>('/api/dictionary/catalog/syscodes');

export const fetchErrCodes = () => request.get<ErrCode[]>('/api/dictionary/catalog/errcodes');
