import { history, useModel } from '@umijs/max';
import { LOGIN_PATH } from '@/constants';
import { endSession } from '@/utils/session';

/** Ends the session (server and browser), forgets the user and goes to the sign-in screen. */
export function useSignOut(): () => Promise<void> {
  const { setInitialState } = useModel('@@initialState');
  return async () => {
    await endSession();
    await setInitialState((state) => ({ settings: state?.settings }));
    history.push(LOGIN_PATH);
  };
}
