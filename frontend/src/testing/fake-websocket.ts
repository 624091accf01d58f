import { vi } from 'vitest';

type Listener = (event: unknown) => void;

/**
 * A WebSocket that never touches the network. It stays connecting until a test calls `open()`;
 * `receive()` and `serverClose()` play the server's part and `sent` records what the client sent.
 */
export class FakeWebSocket {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  static instances: FakeWebSocket[] = [];

  readonly url: string;
  readyState = FakeWebSocket.CONNECTING;
  readonly sent: string[] = [];
  onopen: Listener | null = null;
  onmessage: Listener | null = null;
  onclose: Listener | null = null;
  onerror: Listener | null = null;
  private readonly listeners = new Map<string, Set<Listener>>();

  constructor(url: string) {
    this.url = url;
    FakeWebSocket.instances.push(this);
  }

  /** The socket the app opened last. */
  static latest(): FakeWebSocket {
    const socket = FakeWebSocket.instances.at(-1);
    if (!socket) throw new Error('No WebSocket was opened');
    return socket;
  }

  addEventListener(type: string, listener: Listener) {
    if (!this.listeners.has(type)) this.listeners.set(type, new Set());
    this.listeners.get(type)!.add(listener);
  }

  removeEventListener(type: string, listener: Listener) {
    this.listeners.get(type)?.delete(listener);
  }

  send(data: string) {
    if (this.readyState !== FakeWebSocket.OPEN) throw new Error('The socket is not open');
    this.sent.push(data);
  }

  close(code = 1000) {
    if (this.readyState === FakeWebSocket.CLOSED) return;
    this.readyState = FakeWebSocket.CLOSED;
    this.dispatch('close', { code, reason: '', wasClean: true });
  }

  /** What the client sent, parsed. */
  sentMessages(): unknown[] {
    return this.sent.map((text) => JSON.parse(text));
  }

  open() {
    this.readyState = FakeWebSocket.OPEN;
    this.dispatch('open', { type: 'open' });
  }

  receive(message: unknown) {
    const data = typeof message === 'string' ? message : JSON.stringify(message);
    this.dispatch('message', { type: 'message', data });
  }

  serverClose(code: number) {
    this.readyState = FakeWebSocket.CLOSED;
    this.dispatch('close', { code, reason: '', wasClean: true });
  }

  private dispatch(type: 'open' | 'message' | 'close', event: unknown) {
    this[`on${type}`]?.(event);
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }
}

/** Replaces WebSocket for one test (vitest unstubs globals after each). */
export function installFakeWebSocket() {
  FakeWebSocket.instances = [];
  vi.stubGlobal('WebSocket', FakeWebSocket);
}
