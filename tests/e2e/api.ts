import { signInDemoAdmin } from '../bench/demo-sign-in';

/**
 * The API as the demo tenant's administrator, for what a journey sets up or checks beside the browser: signs in once,
 * answers the body, throws with the status and body when the answer is not a success.
 */
export function adminApi(baseURL: string) {
  let token: Promise<string> | undefined;
  return async (method: string, path: string, body?: unknown) => {
    token ??= signInDemoAdmin(baseURL);
    const res = await fetch(`${baseURL}/api${path}`, {
      method,
      headers: { authorization: `Bearer ${await token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = res.status === 204 ? undefined : await res.json();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(answer)}`);
    return answer;
  };
}
