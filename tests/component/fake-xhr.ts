import { vi } from 'vitest';
import { dispatchRoot } from '@/utils/store';

/** An upload the fake received. */
export interface Upload {
  method: string;
  url: string;
}

/**
 * Uploads through the server, as a signed-in user makes them: XMLHttpRequest (as uploadFile uses it) is replaced by a
 * fake that answers each upload with the file stored, its id counted from `firstId`, its name the one sent. Gives the
 * uploads sent, in order. `vi.unstubAllGlobals()` puts XMLHttpRequest back.
 */
export function fakeUploads(firstId = 61): Upload[] {
  dispatchRoot('SET_TOKEN', { accessToken: 'tok', refreshToken: 'r', type: 'bearer' });
  const sent: Upload[] = [];
  let next = firstId;
  class FakeXhr {
    upload: { onprogress?: (event: Partial<ProgressEvent>) => void } = {};
    status = 0;
    responseText = '';
    onload?: () => void;
    onerror?: () => void;
    onabort?: () => void;
    private request: Upload = { method: '', url: '' };
    open(method: string, url: string) {
      Object.assign(this.request, { method, url });
    }
    setRequestHeader() {}
    send() {
      sent.push({ ...this.request });
      setTimeout(() => {
        this.status = 201;
        const name = new URLSearchParams(this.request.url.split('?')[1]).get('name');
        this.responseText = JSON.stringify({ id: String(next++), originalName: name });
        this.onload?.();
      });
    }
    abort() {
      this.onabort?.();
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return sent;
}
