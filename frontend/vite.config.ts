/// <reference types="vitest/config" />
import { fileURLToPath, URL } from 'node:url';

import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

const backend = 'http://127.0.0.1:8000';

const THEME_COLOR = '#1d4ed8';
const BACKGROUND_COLOR = '#f8fafc';

/**
 * The installable app: the manifest and a Workbox service worker built from sw/sw.ts
 * (injectManifest). Django serves both from the site's root (project/views.py), so the worker's
 * scope is the whole site while the build itself stays under /static/.
 */
const pwa = VitePWA({
  strategies: 'injectManifest',
  srcDir: 'sw',
  filename: 'sw.ts',
  // The page asks before a new build takes over (src/app/service-worker.ts shows the toast).
  registerType: 'prompt',
  injectRegister: false,
  buildBase: '/',
  scope: '/',
  includeManifestIcons: false,
  manifest: {
    id: '/',
    name: 'ScoutVote',
    short_name: 'ScoutVote',
    description:
      'Community-powered discovery of young athletes. Nominate, vote and climb the leaderboards.',
    lang: 'en',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    theme_color: THEME_COLOR,
    background_color: BACKGROUND_COLOR,
    icons: [
      { src: '/static/pwa-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/static/pwa-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      {
        src: '/static/pwa-maskable-192.png',
        sizes: '192x192',
        type: 'image/png',
        purpose: 'maskable',
      },
      {
        src: '/static/pwa-maskable-512.png',
        sizes: '512x512',
        type: 'image/png',
        purpose: 'maskable',
      },
    ],
  },
  injectManifest: {
    // The build's own files only: the shell, its scripts and styles, the offline page and the
    // icons a notification uses. Never a server answer.
    globPatterns: ['**/*.{js,css,html,svg,woff2}', 'pwa-*.png'],
    globIgnores: ['sw.js', 'manifest.webmanifest'],
    // Entries are written relative to dist/, which Django serves under /static/; the worker
    // lives at /sw.js, so each URL carries the prefix.
    modifyURLPrefix: { '': '/static/' },
  },
});

export default defineConfig(({ command }) => ({
  // Django serves dist/ as static files under /static/ and answers every SPA path with
  // dist/index.html, so built asset URLs must carry the prefix; the dev server serves from /.
  base: command === 'build' ? '/static/' : '/',
  plugins: [react(), tailwindcss(), pwa],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // The framework changes less often than the app: its own chunk stays cached across deploys.
        // Only modules the shell loads anyway belong here, or lazy pages would leak into it.
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/,
            },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    strictPort: true,
    // The Host header is kept (no changeOrigin) so Django's CSRF Origin check sees one origin.
    proxy: {
      '/api': { target: backend },
      '/ws': { target: backend, ws: true },
    },
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/testing/setup-tests.ts'],
    css: false,
    restoreMocks: true,
    unstubGlobals: true,
    // The screens' tests render whole routes in jsdom; on two cores shared with the browser
    // tests' servers one can take longer than Vitest's default 5 s without anything being wrong.
    testTimeout: 20_000,
  },
}));
