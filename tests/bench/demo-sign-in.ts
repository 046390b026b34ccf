/** The demo administrator's password grant, as the console sends it. */
export const demoAdminGrant = {
  grant_type: 'password',
  tenant: 'demo',
  username: 'admin',
  password: 'admin123',
  client_id: 'console',
};

/** Signs the demo administrator in on the API at `base` and returns the access token. */
export async function signInDemoAdmin(base: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(demoAdminGrant),
  });
  if (!res.ok) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}
