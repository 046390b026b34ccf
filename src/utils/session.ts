import { DEFAULT_TOKEN_TYPE } from '@/constants';
import { initialRootState } from '@/models/root';
import {
  type CurrentUser,
  fetchErrCodes,
  fetchMe,
  fetchPublicSettings,
  fetchSysCodes,
  signOut,
  type TokenAnswer,
} from '@/services/auth';
import { dispatchRoot, getRootState } from '@/utils/store';

export interface InitialState {
  name?: string;
  currentUser?: CurrentUser;
  settings?: Record<string, unknown>;
}

/** Writes the signed-in user into the persisted state (spec.md §3 fields). */
export function applyCurrentUser(me: CurrentUser) {
  const accessToken = (getRootState().token as { accessToken?: string }).accessToken ?? '';
  dispatchRoot('SET_USERINFO', { userName: me.userName, permissions: me.permissions, token: accessToken });
  dispatchRoot('SET_TENANT_ID', me.tenant.id);
  dispatchRoot('SET_ORGANIZATION_ID', me.orgId ?? '');
  dispatchRoot('SET_CLIENT_TYPE', me.clientType);
}

export const toInitialState = (me: CurrentUser | undefined, settings: Record<string, unknown>): InitialState => ({
  name: me?.displayName || me?.userName,
  currentUser: me,
  settings,
});

/** After a successful password grant: token, user, dictionaries (once the password is the user's own), settings. */
export async function startSession(answer: TokenAnswer): Promise<InitialState> {
  dispatchRoot('SET_TOKEN', {
    accessToken: answer.access_token,
    refreshToken: answer.refresh_token,
    type: answer.token_type || DEFAULT_TOKEN_TYPE,
  });
  const me = await fetchMe();
  applyCurrentUser(me);
  const [settings] = await Promise.all([
    fetchPublicSettings(me.tenant.code),
    // the server answers nothing else until an initial password is changed; FirstUsePassword loads them after
    me.mustChangePassword ? undefined : loadDictionaries(),
  ]);
  dispatchRoot('SET_APP_SETTINGS', settings);
  return toInitialState(me, settings);
}

/** Dictionaries and error codes of the signed-in user's tenant. */
export async function loadDictionaries() {
  const [sysCodes, errCodes] = await Promise.all([fetchSysCodes(), fetchErrCodes()]);
  dispatchRoot('SET_SYSCODE', sysCodes);
  dispatchRoot('SET_ERRCODE', errCodes);
}

/** Sign-out: revoke on the server (best effort), then forget the session and its tabs. */
export async function endSession() {
  await signOut().catch(() => undefined);
  dispatchRoot('SET_TOKEN', {});
  dispatchRoot('SET_USERINFO', initialRootState.userInfo);
  dispatchRoot('SET_CURTAB', []);
  dispatchRoot('SET_LAST_ACTIVE_TABPATH', '');
}

/** The product name from the public settings, in the current language. */
export function brandingName(settings: Record<string, unknown> | undefined, locale: string): string | undefined {
  const name = settings?.[locale === 'en-US' ? 'branding.nameEn' : 'branding.name'];
  return typeof name === 'string' && name ? name : undefined;
}
