import type { components } from '@/lib/api/schema';

/**
 * The live socket's protocol (realtime/README.md). The server speaks in envelopes, one per event,
 * with a sequence number rising by one per group; control messages announce where each group
 * stands.
 */

type Schemas = components['schemas'];

// Every message type below is generated (`make types`) from the server's models in
// realtime/event_payloads.py: none is written here by hand.

/** A nomination's vote count at its version (the version rises by one with every change). */
export type VoteCount = Schemas['VoteCount'];

/** One event as the server sends it. `sport` is set on sport-group events. */
export type LiveEvent<T extends Schemas['LiveEvent']['type'] = Schemas['LiveEvent']['type']> = {
  [K in T]: Extract<Schemas['LiveEvent'], { type: K }>;
}[T];

export type LiveEventType = LiveEvent['type'];

/** What each live event carries: event type -> its `data`. */
export type LiveEventMap = { [E in LiveEvent as E['type']]: E['data'] };

/** Group name -> the sequence number of its last event. */
export type Cursors = Record<string, number>;

/** A sport's boards (by kind, as `leaderboard.changed` carries each) and stats. */
export type LiveSnapshot = Schemas['SnapshotData'];

/** "N watching": how many sockets watch a nomination or a sport (counts, never who). */
export type PresenceCount = Schemas['PresenceCount'];

/** Which pending nomination another admin has open. */
export type ReviewMark = Schemas['ReviewMark'];

export type ControlMessage = Schemas['LiveControlMessage'];

export type ServerMessage = Schemas['LiveServerMessage'];

export type ClientMessage = Schemas['LiveClientMessage'];

export const PING = JSON.stringify({ type: 'ping' } satisfies ClientMessage);
export const PONG = '{"type":"pong"}';

/** Close codes the server uses (realtime/consumers.py). */
export const CloseCode = {
  /** The server process is restarting (it drains its sockets): reconnect soon and resume. */
  goingAway: 1001,
  /** The session or its rights changed, or events may have been lost: reconnect, read again. */
  reconnect: 4001,
  /** The socket fell too far behind: reconnect and resume. */
  tooSlow: 4008,
  /** The client sent messages too fast: back off, then resume. */
  tooManyMessages: 4429,
  /** Not signed in: do not reconnect until signed in again. */
  unauthenticated: 4401,
  /** The live layer cannot serve now (Redis away): back off, then resume. */
  unavailable: 4503,
} as const;

/** Messages with a group and seq that are not events to apply. */
const SEQUENCED_CONTROL = new Set(['snapshot', 'skipped']);

export function isLiveEvent(message: ServerMessage): message is LiveEvent {
  return (
    'seq' in message &&
    typeof message.seq === 'number' &&
    'group' in message &&
    !SEQUENCED_CONTROL.has(message.type)
  );
}

/** The message in a frame, or null when it is not a JSON object with a type. */
export function parseServerMessage(text: unknown): ServerMessage | null {
  if (typeof text !== 'string') return null;
  try {
    const message: unknown = JSON.parse(text);
    if (typeof message === 'object' && message !== null && 'type' in message) {
      return message as ServerMessage;
    }
  } catch {
    // Not JSON: nothing the client understands.
  }
  return null;
}

/** The live socket's address: /ws/ on the page's own origin. */
export function liveSocketUrl(location: Pick<Location, 'protocol' | 'host'> = window.location) {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/ws/`;
}

/**
 * Milliseconds before reconnecting after the server said it cannot serve now (4503) or the
 * client sent too much (4429): 4 to 5 s, at random, on every attempt. While the live layer is
 * away each tab comes back at most about once per 5 s, without growing, so every tab is back
 * within 5 s of its return.
 */
export function unavailableDelay(random: () => number = Math.random): number {
  return Math.round(4000 + random() * 1000);
}

/**
 * Milliseconds before reconnecting after the server went away for a restart (1001): 0.25 to
 * 1.25 s, at random. The server already spreads its closes over its drain window; the jitter
 * keeps tabs closed in the same instant from coming back in the same one.
 */
export function goingAwayDelay(random: () => number = Math.random): number {
  return Math.round(250 + random() * 1000);
}

/**
 * How long a planned reconnect (1001) may take before the status shows it: a quick one reads
 * as live throughout, with no "Connecting" flashing for a restart nobody has to know about.
 */
export const PLANNED_RECONNECT_GRACE_MS = 3000;

/**
 * Milliseconds before reconnect attempt `attempt` (0-based): doubling from 1 s up to 30 s, each
 * taken at random between half and all of it, so tabs dropped together do not return together.
 */
export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(30_000, 1000 * 2 ** Math.min(attempt, 15));
  return Math.round(ceiling * (0.5 + random() / 2));
}
