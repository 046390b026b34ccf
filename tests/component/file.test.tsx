import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import FilePage from '@/pages/file/file';
import type { StoredFile } from '@/pages/file/file/descriptor';
import StoragePage from '@/pages/file/storage';
import type { StorageConfig } from '@/pages/file/storage/descriptor';
import { dispatchRoot } from '@/utils/store';
import { fakeApi, page } from './fake-api';
import { freshStore, grant, renderApp, seededSysCodes, type TestStore } from './harness';

vi.setConfig({ testTimeout: 60_000 });

const config = (id: string, name: string, extra: Partial<StorageConfig> = {}): StorageConfig => ({
  id,
  name,
  provider: 'local',
  endpoint: null,
  region: null,
  bucket: null,
  pathStyle: false,
  basePath: null,
  accessKeyId: null,
  secretSet: false,
  signedUrlTtlSec: 3600,
  isMaster: false,
  status: 'enabled',
  remark: null,
  fileCount: 0,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: null,
  version: 1,
  ...extra,
});
const disk = config('1', '服务器磁盘', { isMaster: true, fileCount: 12 });
const minio = config('2', 'MinIO', {
  provider: 's3',
  endpoint: 'https://minio.example.com',
  region: 'us-east-1',
  bucket: 'medu',
  accessKeyId: 'AKIA',
  secretSet: true,
});

const stored = (id: string, originalName: string, extra: Partial<StoredFile> = {}): StoredFile => ({
  id,
  originalName,
  storageConfigId: null,
  storageName: null,
  mimeType: 'application/pdf',
  ext: 'pdf',
  sizeBytes: 1536,
  sha256: null,
  bizType: 'library',
  bizId: null,
  status: 'active',
  createdBy: 'u1',
  uploaderName: '管理员',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: null,
  version: 1,
  ...extra,
});
const handbook = stored('1', '手册.pdf');
const photo = stored('2', '证书.png', {
  mimeType: 'image/png',
  ext: 'png',
  sizeBytes: 3 * 1024 * 1024 + 300 * 1024,
  storageName: 'MinIO',
  bizType: 'qualification.attachment',
  bizId: 'abcdef12-3456',
});
const orphan = stored('3', '草稿.docx', { sizeBytes: 800, bizType: null, status: 'pending' });

let store: TestStore;
beforeEach(() => {
  store = freshStore(seededSysCodes('common_status'));
});
afterEach(() => vi.unstubAllGlobals());

describe('/oss/list', () => {
  const codes = ['list', 'create', 'update', 'delete', 'test', 'set-master'].map((a) => `file:storage:${a}`);
  function mount(extra: Parameters<typeof fakeApi>[0] = {}) {
    const api = fakeApi({ 'GET /api/file/storage': () => page([disk, minio]), ...extra });
    render(renderApp({ store, access: grant(codes), children: <StoragePage /> }).tree);
    return api;
  }

  it('lists the configurations with the master tagged, below the fallback note', async () => {
    mount();
    const row = (await screen.findByText('MinIO')).closest('tr') as HTMLElement;
    expect(within(row).getByText('medu')).toBeInTheDocument();
    expect(within(row).getByText('S3 兼容存储')).toHaveClass('ant-tag');
    expect(within(row).queryByTestId('storage-master')).toBeNull();
    const master = screen.getByText('服务器磁盘').closest('tr') as HTMLElement;
    expect(within(master).getByTestId('storage-master')).toBeInTheDocument();
    expect(within(master).queryByTestId('row-set-master')).toBeNull();
    expect(screen.getByText(/没有启用的主配置时/)).toBeInTheDocument();
  });

  it("edits an S3 store's fields, and keeps its secret unless one is typed", async () => {
    const api = mount({ 'PUT /api/file/storage/2': (call) => ({ body: { ...minio, ...(call.body as object) } }) });
    await screen.findByText('MinIO');
    fireEvent.click(screen.getByTestId('table-create'));
    await screen.findByTestId('form-bucket', {}, { timeout: 15_000 });
    expect(screen.queryByText('已保存（加密），留空则不修改')).toBeNull();
    fireEvent.click(screen.getAllByRole('button', { name: /取\s*消/ }).at(-1) as HTMLElement);
    await waitFor(() => expect(screen.queryByTestId('form-bucket')).toBeNull());

    const row = screen.getByText('MinIO').closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByTestId('row-edit'));
    await waitFor(() => expect(screen.getByTestId('form-bucket')).toHaveValue('medu'));
    expect(screen.getByText('已保存（加密），留空则不修改')).toBeInTheDocument();
    fireEvent.change(screen.getByTestId('form-secretAccessKey'), { target: { value: 'x' } });
    fireEvent.change(screen.getByTestId('form-secretAccessKey'), { target: { value: '' } });
    fireEvent.click(screen.getByTestId('resource-form-submit'));
    await waitFor(() => expect(api.find('PUT', '/api/file/storage/2')).toHaveLength(1));
    const body = api.find('PUT', '/api/file/storage/2')[0].body as Record<string, unknown>;
    expect(body).toMatchObject({ bucket: 'medu', version: 1 });
    expect(body).not.toHaveProperty('secretAccessKey');
  });

  it('warns when the server instances keep local files apart, and only then', async () => {
    const answer = { instances: 2, localDiskShared: false, usesLocalDisk: true };
    mount({ 'GET /api/file/storage-sharing': () => ({ body: answer }) });
    expect(await screen.findByTestId('storage-not-shared')).toHaveTextContent(
      /2 个服务实例各自把文件存在自己的本地磁盘/,
    );
  });

  it('says nothing of instances when they share the disk', async () => {
    const api = mount({
      'GET /api/file/storage-sharing': () => ({ body: { instances: 2, localDiskShared: true, usesLocalDisk: true } }),
    });
    await screen.findByText('MinIO');
    await waitFor(() => expect(api.find('GET', '/api/file/storage-sharing')).toHaveLength(1));
    expect(screen.queryByTestId('storage-not-shared')).toBeNull();
  });

  it('tests a connection and says what the probe answered', async () => {
    const api = mount({
      'POST /api/file/storage/2/test': () => ({ body: { ok: false, message: 'put: AccessDenied', ms: 12 } }),
    });
    const row = (await screen.findByText('MinIO')).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByTestId('row-test'));
    expect(await screen.findByText('连接失败：put: AccessDenied')).toBeInTheDocument();
    expect(api.find('POST', '/api/file/storage/2/test')).toHaveLength(1);
  });
});

/** XMLHttpRequest as uploadFile uses it: the request is recorded, half is reported sent, then the answer comes. */
class FakeXhr {
  static sent: { method: string; url: string; headers: Record<string, string>; body: unknown }[] = [];
  static answer: { status: number; body: unknown } = { status: 201, body: {} };
  upload: { onprogress?: (event: Partial<ProgressEvent>) => void } = {};
  status = 0;
  responseText = '';
  onload?: () => void;
  onerror?: () => void;
  onabort?: () => void;
  private request = { method: '', url: '', headers: {} as Record<string, string> };
  open(method: string, url: string) {
    Object.assign(this.request, { method, url });
  }
  setRequestHeader(name: string, value: string) {
    this.request.headers[name] = value;
  }
  send(body: unknown) {
    FakeXhr.sent.push({ ...this.request, body });
    setTimeout(() => {
      this.upload.onprogress?.({ lengthComputable: true, loaded: 50, total: 100 });
      this.status = FakeXhr.answer.status;
      this.responseText = JSON.stringify(FakeXhr.answer.body);
      this.onload?.();
    });
  }
  abort() {
    this.onabort?.();
  }
}

describe('/file/list', () => {
  const codes = ['list', 'create', 'delete', 'export'].map((a) => `file:file:${a}`);
  function mount(extra: Parameters<typeof fakeApi>[0] = {}) {
    const api = fakeApi({ 'GET /api/file/file': () => page([handbook, photo, orphan]), ...extra });
    render(renderApp({ store, access: grant(codes), children: <FilePage /> }).tree);
    return api;
  }

  it('lists files with readable sizes, their store and who uses them; no create form', async () => {
    mount();
    const row = (name: string) => screen.getByText(name).closest('tr') as HTMLElement;
    await screen.findByText('手册.pdf');
    expect(within(row('手册.pdf')).getByText('1.5 KB')).toBeInTheDocument();
    expect(within(row('手册.pdf')).getByText('文件库')).toBeInTheDocument();
    expect(within(row('手册.pdf')).getByText('本地磁盘（内置）')).toBeInTheDocument();
    expect(within(row('证书.png')).getByText('3.3 MB')).toBeInTheDocument();
    expect(within(row('证书.png')).getByText(/资质附件/)).toBeInTheDocument();
    expect(within(row('证书.png')).getByText('MinIO')).toBeInTheDocument();
    expect(within(row('草稿.docx')).getByText('800 B')).toBeInTheDocument();
    expect(within(row('草稿.docx')).getByText('未使用（一天后清理）')).toBeInTheDocument();
    expect(screen.queryByTestId('table-create')).toBeNull();
    expect(screen.getByTestId('table-export')).toBeInTheDocument();
  });

  it('uploads a dropped file through the server with the token, then lists it', async () => {
    dispatchRoot('SET_TOKEN', { accessToken: 'tok', refreshToken: 'r', type: 'bearer' });
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    FakeXhr.sent = [];
    FakeXhr.answer = { status: 201, body: stored('9', 'scan.png', { mimeType: 'image/png' }) };
    const api = mount({
      'GET /api/file/file/upload-policy': () => ({
        body: { direct: false, provider: 'local', maxSizeMb: 50, allowedExtensions: ['png', 'pdf'] },
      }),
    });
    await screen.findByText('手册.pdf');
    fireEvent.click(screen.getByTestId('file-upload'));
    expect(await screen.findByText('单个文件不超过 50 MB；允许的类型：png, pdf')).toBeInTheDocument();
    const input = document.querySelector('input[type=file]') as HTMLInputElement;
    expect(input.accept).toBe('.png,.pdf');
    fireEvent.change(input, { target: { files: [new File(['png bytes'], 'scan.png', { type: 'image/png' })] } });
    expect(await screen.findByText('scan.png 已上传')).toBeInTheDocument();
    expect(FakeXhr.sent).toHaveLength(1);
    expect(FakeXhr.sent[0]).toMatchObject({
      method: 'POST',
      url: '/api/file/file/upload?name=scan.png&purpose=library',
      headers: { Authorization: 'bearer tok', 'Content-Type': 'image/png' },
    });
    await waitFor(() => expect(api.find('GET', '/api/file/file')).toHaveLength(2));
  });

  it("shows the server's refusal of an upload", async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    FakeXhr.answer = {
      status: 415,
      body: { family: 'CLIENT_ERROR', code: 'file.typeNotAllowed', message: '不允许上传此类型的文件' },
    };
    mount({
      'GET /api/file/file/upload-policy': () => ({
        body: { direct: false, provider: 'local', maxSizeMb: 50, allowedExtensions: ['png'] },
      }),
    });
    await screen.findByText('手册.pdf');
    fireEvent.click(screen.getByTestId('file-upload'));
    await screen.findByText(/单个文件不超过/);
    const input = document.querySelector('input[type=file]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['MZ'], 'tool.png', { type: 'image/png' })] } });
    expect(await screen.findByText('不允许上传此类型的文件')).toBeInTheDocument();
  });

  it('previews an image by its signed link, and says until when the link works', async () => {
    mount({
      'GET /api/file/file/2/link': (call) => ({
        body: {
          url: `/api/file/file/content/tok-${call.query.disposition}`,
          expiresAt: '2026-01-01T10:00:00.000Z',
          mimeType: 'image/png',
          name: '证书.png',
        },
      }),
    });
    const row = (await screen.findByText('证书.png')).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByTestId('row-preview'));
    const image = await screen.findByTestId('file-preview-image');
    expect(image).toHaveAttribute('src', '/api/file/file/content/tok-inline');
    expect(screen.getByText(/链接有效至/)).toBeInTheDocument();
  });
});
