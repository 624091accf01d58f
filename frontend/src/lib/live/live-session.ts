import {
  isLiveEvent,
  type ClientMessage,
  type Cursors,
  type LiveEvent,
  type LiveSnapshot,
  type PresenceCount,
  type ReviewMark,
  type ServerMessage,
} from './protocol';

export type ResyncCause = 'lost' | 'first';

export type LiveSessionCallbacks = {
  send: (message: ClientMessage) => void;
  /** An event to apply, in order, exactly once. */
  onEvent: (event: LiveEvent) => void;
  /**
   * What groups feed must be read again: `lost` when events were lost (a resync, a sequence
   * that started over, the server's 4001), `first` when a group starts with no cursor (events
   * may have passed between the screens' first reads and the subscription).
   */
  onResync: (groups: string[], cause: ResyncCause) => void;
  /** The socket is subscribed to the selected sport: live updates flow. */
  onReady: () => void;
  /** How many watch a nomination or a sport. */
  onPresence?: (count: PresenceCount) => void;
  /** Admins: which nominations other admins have open. */
  onReviews?: (reviews: ReviewMark[]) => void;
};

/**
 * The client side of the protocol (realtime/README.md, "The client's algorithm"), free of
 * sockets and React so it can be tested alone.
 *
 * It keeps, per group, the seq of the last event applied. The cursors outlive a connection: when
 * a new one announces where a group stands (hello, subscribed) and the client is behind, it asks
 * to resume from its cursor and the server replays what was missed, or answers resync when it no
 * longer can. A group announced without a cursor (the first connection, or after the server
 * said events were lost) starts from the announced seq, and what it feeds is read again, since
 * events may have passed between those reads and the subscription. A gap in a group's sequence
 * is filled the same way, by resuming from the cursor. While a group resumes, only the next
 * event in order is applied; later ones are dropped, since the replay brings them again in order.
 */
export class LiveSession {
  private readonly callbacks: LiveSessionCallbacks;
  private readonly cursors = new Map<string, number>();
  private readonly resuming = new Set<string>();
  /** Groups whose cursors were dropped because the server said events were lost. */
  private readonly forgotten = new Set<string>();
  private sport: string;
  private greeted = false;
  /** The live layer's data the cursors belong to; another epoch voids them. */
  private epoch: string | null = null;

  constructor(sport: string, callbacks: LiveSessionCallbacks) {
    this.sport = sport;
    this.callbacks = callbacks;
  }

  /** The selected sport; switching subscribes to the new one without reconnecting. */
  setSport(sport: string) {
    if (sport === this.sport) return;
    this.sport = sport;
    if (this.greeted) this.subscribe();
  }

  /**
   * Subscribe to the selected sport, with the cursor held for its group (from an earlier
   * connection or visit): the server starts there and replays what followed, in the same
   * step (an older server ignores the cursor and announces its position: the client resumes).
   */
  private subscribe() {
    const cursor = this.cursors.get(`sport.${this.sport}`);
    this.callbacks.send(
      cursor === undefined
        ? { type: 'subscribe', sport: this.sport }
        : { type: 'subscribe', sport: this.sport, cursor },
    );
  }

  /** The connection closed: resumes asked on it will not be answered. Cursors are kept. */
  disconnected() {
    this.greeted = false;
    this.resuming.clear();
  }

  /**
   * The server closed saying events may have been lost, or the session changed (4001): nothing
   * is resumed; the next connection starts from its announced positions and reads everything
   * again.
   */
  forget() {
    this.disconnected();
    for (const group of this.cursors.keys()) this.forgotten.add(group);
    this.cursors.clear();
  }

  /** The last applied seq of a group, if any. */
  cursor(group: string): number | undefined {
    return this.cursors.get(group);
  }

  receive(message: ServerMessage) {
    if (isLiveEvent(message)) {
      this.receiveEvent(message);
      return;
    }
    switch (message.type) {
      case 'hello':
        this.greeted = true;
        if (message.epoch) {
          // The live layer lost its data (a Redis restart): old cursors mean nothing now.
          if (this.epoch !== null && message.epoch !== this.epoch) this.forget();
          this.greeted = true;
          this.epoch = message.epoch;
        }
        // The session's own groups (user, admins) are all listed: forget any no longer there.
        for (const group of [...this.cursors.keys()]) {
          if (!group.startsWith('sport.') && !(group in message.groups)) this.cursors.delete(group);
        }
        this.announce(message.groups);
        this.subscribe();
        break;
      case 'subscribed':
        this.announce(message.groups);
        if (message.sport === this.sport) this.callbacks.onReady();
        break;
      case 'resumed':
        for (const [group, seq] of Object.entries(message.groups)) {
          this.resuming.delete(group);
          // The replay should have brought the cursor exactly here; if not, something was lost.
          if (this.cursors.get(group) !== seq) this.resync([group], { [group]: seq });
        }
        break;
      case 'resync':
        this.resync(message.groups, message.cursors);
        break;
      case 'skipped':
        // A board or stats the server replaced with a newer one before sending it: only the
        // position moves.
        this.receiveEvent(message, false);
        break;
      case 'snapshot':
        if (message.group === `sport.${this.sport}`) this.applySnapshot(message);
        break;
      case 'presence.changed':
        this.callbacks.onPresence?.(message.data);
        break;
      case 'review.changed':
        this.callbacks.onReviews?.(message.data.reviews);
        break;
      case 'error':
        console.warn(`Live updates: ${message.message}`);
        break;
      default:
        break;
    }
  }

  private receiveEvent(event: LiveEvent | { group: string; seq: number }, apply = true) {
    const { group, seq } = event;
    const cursor = this.cursors.get(group);
    if (cursor !== undefined && seq <= cursor) return;
    if (cursor !== undefined && seq > cursor + 1) {
      // A gap: the replay from the cursor re-sends, in order, everything after it.
      if (!this.resuming.has(group)) {
        this.resuming.add(group);
        this.callbacks.send({ type: 'resume', cursors: { [group]: cursor } });
      }
      return;
    }
    this.cursors.set(group, seq);
    if (apply) this.apply(event as LiveEvent);
  }

  /**
   * Hands an event to the screens. A merge window's `activity.batch` reaches them as the
   * `activity.created` of each of its items, oldest first (one frame on the wire, the same
   * events to every screen).
   */
  private apply(event: LiveEvent) {
    for (const one of liveEventsOf(event)) this.callbacks.onEvent(one);
  }

  /**
   * Where groups stand on the server: resume those the client is behind on; start the others
   * from here and read again what they feed.
   */
  private announce(positions: Cursors) {
    const behind: Cursors = {};
    const first: string[] = [];
    const lost: string[] = [];
    for (const [group, position] of Object.entries(positions)) {
      const cursor = this.cursors.get(group);
      if (cursor !== undefined && cursor < position) {
        behind[group] = cursor;
        this.resuming.add(group);
        continue;
      }
      if (cursor === position) continue;
      // No cursor yet, or the server's sequence started over (a reset live layer).
      this.cursors.set(group, position);
      if (cursor === undefined && !this.forgotten.has(group)) first.push(group);
      else lost.push(group);
      this.forgotten.delete(group);
    }
    if (Object.keys(behind).length > 0) this.callbacks.send({ type: 'resume', cursors: behind });
    if (first.length > 0) this.callbacks.onResync(first, 'first');
    if (lost.length > 0) this.callbacks.onResync(lost, 'lost');
  }

  /**
   * A sport's boards and stats as they stand at the group's cursor (after subscribe or
   * resync), applied as the events that carry each: the screens need no read of their own.
   */
  private applySnapshot({ group, seq, data }: { group: string; seq: number; data: LiveSnapshot }) {
    const sport = this.sport;
    for (const board of Object.values(data.leaderboards)) {
      this.callbacks.onEvent({ type: 'leaderboard.changed', group, seq, sport, data: board });
    }
    this.callbacks.onEvent({ type: 'stats.changed', group, seq, sport, data: data.stats });
  }

  private resync(groups: string[], cursors: Cursors) {
    for (const group of groups) {
      this.resuming.delete(group);
      if (cursors[group] !== undefined) this.cursors.set(group, cursors[group]);
    }
    this.callbacks.onResync(groups, 'lost');
  }
}

/**
 * The events one frame hands to the screens: itself, or for a merge window's `activity.batch`
 * the `activity.created` of each of its items, oldest first.
 */
export function liveEventsOf(event: LiveEvent): LiveEvent[] {
  if (event.type !== 'activity.batch') return [event];
  const { group, seq, sport } = event;
  return event.data.items.map((item): LiveEvent => ({
    type: 'activity.created',
    group,
    seq,
    sport,
    data: item,
  }));
}
