import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { expect } from 'vitest';
import type { Answer, Json } from './helpers';

/**
 * An SMTP server on loopback that asks for `account` (AUTH over plain text, as no TLS is offered) and keeps every
 * message it accepts with the user who sent it: a message sent with another password is refused (535), one sent
 * without any (530).
 */
export async function smtpSinkWithLogin(account: { user: string; password: string }) {
  const received: { to: string[]; user: string; text: string }[] = [];
  const server = new SMTPServer({
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    onAuth(auth, _session, done) {
      if (auth.username === account.user && auth.password === account.password)
        return done(null, { user: auth.username });
      return done(new Error('Invalid username or password'));
    },
    onData(stream, session, done) {
      let text = '';
      stream.on('data', (chunk: Buffer) => {
        text += chunk.toString('utf8');
      });
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), user: String(session.user), text });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

type Call = (method: string, path: string, body?: unknown) => Promise<Answer>;

/**
 * Sends one e-mail to the caller through the caller's tenant's e-mail settings (a batch of the template `templateId`
 * to the caller alone, given the address `to`) and answers the batch once it is finished.
 */
export async function mailToSelf(call: Call, templateId: string, to: string): Promise<Json> {
  const me = (await call('GET', '/api/auth/me')).body as Json;
  const updated = await call('PUT', '/api/auth/me', { displayName: me.displayName, version: me.version, email: to });
  expect(updated.status, JSON.stringify(updated.body)).toBe(200);
  const sent = await call('POST', '/api/message/batch', {
    name: 'mail',
    templateId,
    audience: { userIds: [me.userId] },
    params: {},
  });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  const end = Date.now() + 20_000;
  for (;;) {
    const batch = (await call('GET', `/api/message/batch/${sent.body.id}`)).body as Json;
    if (batch.status === 'completed' || batch.status === 'cancelled') return batch;
    if (Date.now() > end) throw new Error(`batch not finished: ${JSON.stringify(batch)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
