import '@testing-library/jest-dom/vitest';

import { act, cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';

import { DEFAULT_SPORT, useSportStore } from '@/stores/sport';
import { useToastStore } from '@/stores/toast';

import { installFakeWebSocket } from './fake-websocket';

// Lazy route chunks load through Vite's transform; on a busy two-core machine the first one
// takes longer than findBy's default second.
configure({ asyncUtilTimeout: 5000 });

// jsdom has no layout: the router's scroll restoration has nothing to scroll.
window.scrollTo = vi.fn() as typeof window.scrollTo;
Element.prototype.scrollIntoView = vi.fn();

// The live socket never reaches the network in tests; a test drives the fake when it needs to.
beforeEach(() => {
  installFakeWebSocket();
});

afterEach(() => {
  cleanup();
  act(() => {
    useToastStore.getState().remove();
    useSportStore.setState({ sport: DEFAULT_SPORT });
  });
  localStorage.clear();
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0].trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
});
