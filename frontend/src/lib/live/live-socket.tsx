import { useEffect, useRef, useState } from 'react';

import { useOnline } from '@/hooks/use-online';
import { useWebSocket } from '@/lib/websocket';
import { useConnectionStore } from '@/stores/connection';
import { useSportStore } from '@/stores/sport';

import { publishLiveEvent } from './event-bus';
import { LiveSession, type LiveSessionCallbacks } from './live-session';
import { usePresenceStore } from './presence';
import {
  CloseCode,
  liveSocketUrl,
  parseServerMessage,
  PING,
  PONG,
  reconnectDelay,
  goingAwayDelay,
  PLANNED_RECONNECT_GRACE_MS,
  unavailableDelay,
  type LiveEvent,
} from './protocol';

export type LiveSocketProps = {
  /** Connect only while signed in: the server closes an anonymous socket at once. */
  enabled: boolean;
  /** Applies an event to the query cache; runs inside the socket's message handler. */
  onEvent: (event: LiveEvent) => void;
  /**
   * Reads again what groups feed: after events were lost, and when a group starts (events may
   * have passed between the first reads and the subscription).
   */
  onResync: (groups: string[]) => void;
  /** The server says the session is gone (4401). */
  onSignedOut: () => void;
  /** The server asked for a reconnect because the session or its rights changed (4001). */
  onSessionChanged?: () => void;
};

/**
 * Heartbeat: a ping after 10 s of silence; no message for 20 s (the pong is 10 s late) means the
 * socket is dead, as when the network is there but leads nowhere.
 */
const HEARTBEAT = { message: PING, returnMessage: PONG, interval: 10_000, timeout: 20_000 };

/**
 * The tab's one live socket (shared by any other user of the same address). Every message goes
 * through the protocol session inside onMessage, so a burst of events is applied in full and in
 * order; the cache is written before other screens hear of the event on the bus.
 *
 * While the browser says it has no network the socket is closed and the status reads closed
 * (Offline): nothing would pass on it, and its heartbeat would take its time to notice. The
 * network back, it connects at once, without a backoff, and resumes from its cursors.
 */
export function LiveSocket({
  enabled,
  onEvent,
  onResync,
  onSignedOut,
  onSessionChanged,
}: LiveSocketProps) {
  const sport = useSportStore((state) => state.sport);
  const setStatus = useConnectionStore((state) => state.setStatus);
  // Failed attempts since the last greeting; the library's own count restarts at every open.
  const attempts = useRef(0);
  // After a 4001 the server wants the client back at once, not after a backoff.
  const reconnectNow = useRef(false);
  // After a 4503 (live layer away) or a 4429 the server wants the client back later, steadily.
  const backOff = useRef(false);
  // After a 1001 (the server restarts) the client comes back soon; the status turns to
  // connecting only if that takes longer than the grace (the timer until then).
  const goingAway = useRef(false);
  const plannedReconnect = useRef<ReturnType<typeof setTimeout> | null>(null);
  // The session keeps its cursors for the page's life; what it calls is bound after each render.
  const [callbacks] = useState<LiveSessionCallbacks>(() => ({
    send: () => undefined,
    onEvent: () => undefined,
    onResync: () => undefined,
    onReady: () => undefined,
  }));
  const [session] = useState(() => new LiveSession(sport, callbacks));
  const handlers = useRef({ onSignedOut, onSessionChanged });
  const online = useOnline();
  const connect = enabled && online;
  const active = useRef(connect);
  // The socket open now, and those dropped on purpose (the network went away): the close of a
  // dropped one may come late, on a browser back online with a new socket, and is not its.
  const current = useRef<EventTarget | null>(null);
  const [dropped] = useState(() => new WeakSet<EventTarget>());
  const clearPlannedReconnect = () => {
    if (plannedReconnect.current !== null) clearTimeout(plannedReconnect.current);
    plannedReconnect.current = null;
  };

  const { sendMessage } = useWebSocket(
    liveSocketUrl,
    {
      share: true,
      heartbeat: HEARTBEAT,
      reconnectAttempts: Number.POSITIVE_INFINITY,
      reconnectInterval: () => {
        if (reconnectNow.current) {
          reconnectNow.current = false;
          return Math.round(100 + Math.random() * 400);
        }
        if (backOff.current) {
          backOff.current = false;
          return unavailableDelay();
        }
        if (goingAway.current) {
          goingAway.current = false;
          return goingAwayDelay();
        }
        return reconnectDelay(attempts.current++);
      },
      shouldReconnect: (event) => event.code !== CloseCode.unauthenticated,
      onOpen: (event) => {
        current.current = event.target;
        if (plannedReconnect.current === null) setStatus('connecting');
      },
      onMessage: (event) => {
        const message = parseServerMessage(event.data);
        if (message) session.receive(message);
      },
      // Messages are handled above; keeping none as the hook's lastMessage saves a render each.
      filter: () => false,
      onClose: (event) => {
        if (event.target && dropped.has(event.target)) return;
        session.disconnected();
        usePresenceStore.getState().clear();
        if (!active.current) return;
        if (event.code === CloseCode.unauthenticated) {
          setStatus('closed');
          handlers.current.onSignedOut();
          return;
        }
        if (event.code === CloseCode.goingAway) {
          // A planned restart: back soon on another process, resuming from the cursors.
          goingAway.current = true;
          if (plannedReconnect.current === null) {
            plannedReconnect.current = setTimeout(() => {
              plannedReconnect.current = null;
              if (active.current) setStatus('connecting');
            }, PLANNED_RECONNECT_GRACE_MS);
          }
          return;
        }
        clearPlannedReconnect();
        setStatus('connecting');
        if (event.code === CloseCode.unavailable || event.code === CloseCode.tooManyMessages) {
          backOff.current = true;
        }
        if (event.code === CloseCode.reconnect) {
          // Events may be lost or the rights changed: start afresh, and check the session.
          session.forget();
          reconnectNow.current = true;
          handlers.current.onSessionChanged?.();
        }
      },
    },
    connect,
  );

  useEffect(() => {
    handlers.current = { onSignedOut, onSessionChanged };
    Object.assign(callbacks, {
      send: (message) => sendMessage(JSON.stringify(message), false),
      onEvent: (event) => {
        onEvent(event);
        publishLiveEvent(event);
      },
      onResync: (groups) => onResync(groups),
      onReady: () => {
        attempts.current = 0;
        clearPlannedReconnect();
        setStatus('open');
        const { watching } = usePresenceStore.getState();
        if (watching !== null)
          sendMessage(JSON.stringify({ type: 'watch', nominationId: watching }));
      },
      onPresence: (count) => usePresenceStore.getState().setCount(count),
      onReviews: (reviews) => usePresenceStore.getState().setReviews(reviews),
    } satisfies LiveSessionCallbacks);
  });

  // The open nomination page, told to the server as it changes (and again on each connection).
  useEffect(
    () =>
      usePresenceStore.subscribe((state, previous) => {
        if (state.watching !== previous.watching) {
          sendMessage(JSON.stringify({ type: 'watch', nominationId: state.watching }), false);
        }
      }),
    [sendMessage],
  );

  useEffect(() => {
    session.setSport(sport);
  }, [session, sport]);

  useEffect(() => {
    active.current = connect;
    if (plannedReconnect.current !== null) clearTimeout(plannedReconnect.current);
    plannedReconnect.current = null;
    setStatus(connect ? 'connecting' : 'closed');
    if (!connect) {
      if (current.current) dropped.add(current.current);
      current.current = null;
      session.disconnected();
      usePresenceStore.getState().clear();
    }
  }, [session, connect, setStatus, dropped]);

  return null;
}
