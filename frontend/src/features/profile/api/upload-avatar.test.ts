import { afterEach, describe, expect, it, vi } from 'vitest';

import {
  AVATAR_MAX_BYTES,
  avatarFileProblem,
  IMAGE_TOO_LARGE,
  NOT_AN_IMAGE,
  postFile,
} from './upload-avatar';

function fileOf(type: string, size: number, name = 'picture') {
  const file = new File(['x'], name, { type });
  Object.defineProperty(file, 'size', { value: size });
  return file;
}

describe('avatarFileProblem', () => {
  it.each(['image/png', 'image/jpeg', 'image/gif', 'image/webp'])('accepts %s', (type) => {
    expect(avatarFileProblem(fileOf(type, 1000))).toBeNull();
  });

  it.each(['image/svg+xml', 'image/bmp', 'application/pdf', 'text/plain', ''])(
    'refuses "%s" as not an image it can take',
    (type) => {
      expect(avatarFileProblem(fileOf(type, 1000))).toBe(NOT_AN_IMAGE);
    },
  );

  it('accepts exactly 5 MB and refuses one byte more', () => {
    expect(avatarFileProblem(fileOf('image/png', AVATAR_MAX_BYTES))).toBeNull();
    expect(avatarFileProblem(fileOf('image/png', AVATAR_MAX_BYTES + 1))).toBe(IMAGE_TOO_LARGE);
    expect(AVATAR_MAX_BYTES).toBe(5_242_880);
  });

  it('names the type problem first', () => {
    expect(avatarFileProblem(fileOf('text/plain', AVATAR_MAX_BYTES + 1))).toBe(NOT_AN_IMAGE);
  });
});

/** A minimal XMLHttpRequest that records what was sent and answers when told. */
class FakeXhr {
  static last: FakeXhr;
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown;
  withCredentials = true;
  status = 0;
  responseText = '';
  upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  ontimeout: (() => void) | null = null;

  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: unknown) {
    this.body = body;
  }
  answer(status: number, text = '') {
    this.status = status;
    this.responseText = text;
    this.onload?.();
  }
}

describe('postFile', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('POSTs the fields then the file as one form, no cookies, reporting progress', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    document.cookie = 'csrftoken=t; path=/';
    const file = fileOf('image/png', 10);
    const progress: number[] = [];
    const fields = { key: 'uploads/avatars/1/abc', policy: 'eyJ9', 'Content-Type': 'image/png' };
    const done = postFile({ uploadURL: 'http://storage.test/avatars', fields }, file, (fraction) =>
      progress.push(fraction),
    );
    const xhr = FakeXhr.last;
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('http://storage.test/avatars');
    // The browser writes the multipart Content-Type (with its boundary) itself.
    expect(xhr.headers).toEqual({});
    expect(xhr.withCredentials).toBe(false);
    expect(xhr.body).toBeInstanceOf(FormData);
    const entries = [...(xhr.body as FormData).entries()];
    // S3 takes the fields before the file, which must come last.
    expect(entries.map(([name]) => name)).toEqual(['key', 'policy', 'Content-Type', 'file']);
    expect(entries.slice(0, 3)).toEqual(Object.entries(fields));
    expect((entries[3][1] as File).size).toBe(file.size);

    xhr.upload.onprogress?.({ lengthComputable: true, loaded: 5, total: 10 } as ProgressEvent);
    xhr.answer(204);
    await expect(done).resolves.toBeUndefined();
    expect(progress).toEqual([0.5]);
  });

  it("fails with the storage's message, or says what the bucket refused", async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const ticket = { uploadURL: '/media/up', fields: { key: 'k', token: 't' } };
    const refused = postFile(ticket, fileOf('image/png', 10), () => {});
    FakeXhr.last.answer(400, JSON.stringify({ message: 'This file is not an image' }));
    await expect(refused).rejects.toThrow('This file is not an image');

    const expired = postFile(ticket, fileOf('image/png', 10), () => {});
    FakeXhr.last.answer(403, '<Error><Code>AccessDenied</Code></Error>');
    await expect(expired).rejects.toThrow('Request has expired');

    const tooLarge = postFile(ticket, fileOf('image/png', 10), () => {});
    FakeXhr.last.answer(400, '<Error><Code>EntityTooLarge</Code></Error>');
    await expect(tooLarge).rejects.toThrow(IMAGE_TOO_LARGE);
  });
});
