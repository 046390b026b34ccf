import type { ChangePassword, Me, TokenRequest, TokenResponse, UpdateMe } from '@server/modules/auth/auth.schema';
import type { ErrCode, SysCode } from '@server/modules/dictionary/catalog/catalog.schema';
import type { PublicSettings } from '@server/modules/system/settings/settings.schema';
import type { z } from 'zod';
import { OAUTH_CLIENT_ID, START_URLS } from '@/constants';
import { takeEarly } from '@/utils/early';
import request, { type Options } from '@/utils/request';

export type TokenAnswer = TokenResponse;
export type CurrentUser = Me;
export type SignInForm = Pick<Extract<TokenRequest, { grant_type: 'password' }>, 'tenant' | 'username' | 'password'>;
export type AppSettings = z.infer<typeof PublicSettings>;

export const signIn = (form: SignInForm) =>
  request.post<TokenAnswer>('/api/auth/token', {
    data: { grant_type: 'password', client_id: OAUTH_CLIENT_ID, ...form },
    skipAuth: true,
  });

export const signOut = () => request.post<void>('/api/auth/logout', { skipErrorHandler: true });

/** The signed-in user; at start-up, the answer index.html asked for (src/utils/early.ts), if it came. */
export const fetchMe = (options?: Options) => request.get<CurrentUser>(START_URLS.me, options);
export const fetchMeAtStart = (options?: Options) => takeEarly(START_URLS.me, () => fetchMe(options));

export const updateMe = (data: UpdateMe, options?: Options) =>
  request.put<CurrentUser>('/api/auth/me', { ...options, data });

export const changePassword = (data: ChangePassword, options?: Options) =>
  request.post<void>('/api/auth/password', { ...options, data });

export const fetchPublicSettings = (tenant?: string) =>
  request.get<AppSettings>(START_URLS.publicSettings, { params: tenant ? { tenant } : {} });
export const fetchPublicSettingsAtStart = () => takeEarly(START_URLS.publicSettings, () => fetchPublicSettings());

export const fetchSysCodes = () => request.get<SysCode[]>('/api/dictionary/catalog/syscodes');

export const fetchErrCodes = () => request.get<ErrCode[]>('/api/dictionary/catalog/errcodes');
