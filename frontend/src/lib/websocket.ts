// Vite 8 (Rolldown) breaks the package root's default export in production builds only (blank
// page, "(0, x.default) is not a function"), so the hook comes from its own module. Import the
// live socket's pieces from here, never from 'react-use-websocket' itself.
export { ReadyState } from 'react-use-websocket/dist/lib/constants';
export type { Options as WebSocketOptions } from 'react-use-websocket/dist/lib/types';
export { useWebSocket } from 'react-use-websocket/dist/lib/use-websocket';
