import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import babel from '@rolldown/plugin-babel';
import { VitePWA } from 'vite-plugin-pwa';
import { visualizer } from 'rollup-plugin-visualizer';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Plugin, PluginOption } from 'vite';
import type { EmbeddedProvider } from './oidc/index.ts';
import { manifest, prerenderPages, themeStylesheet } from './src/prerender/index.ts';
import { PAGE_FILES } from './src/index.ts';

/** MSW's worker script, served by the dev server only: it never enters a build. */
function mswWorkerInDev(): Plugin {
  const require = createRequire(import.meta.url);
  return {
    name: 'circle:msw-worker-dev',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use('/mockServiceWorker.js', (_req, res) => {
        res.setHeader('content-type', 'text/javascript');
        res.end(readFileSync(require.resolve('msw/mockServiceWorker.js')));
      });
    },
  };
}

const DEV_ENTRY = '/@circle/dev-entry';

/**
 * In the dev server the page starts the mock API (MSW in the browser) before the app: index.html's
 * entry is swapped for a module that starts the mock, then loads the app. The app never imports
 * the mock; the two meet here, where the dev server is put together.
 */
function mockApiInDev(): Plugin {
  return {
    name: 'circle:mock-api-dev',
    apply: 'serve',
    transformIndexHtml: {
      order: 'pre',
      handler: (html) => html.replace('src="/src/main.tsx"', `src="${DEV_ENTRY}"`),
    },
    resolveId: (id) => (id === DEV_ENTRY ? `\0${DEV_ENTRY}` : null),
    load: (id) =>
      id === `\0${DEV_ENTRY}`
        ? "import { startBrowserMocks } from '/mock-api/browser.ts';\nawait startBrowserMocks();\nawait import('/src/main.tsx');\n"
        : null,
  };
}

/**
 * The embedded OpenID Connect provider under /oidc in the dev server too, so that `npm run dev`
 * signs in as `npm start` does (MSW in the page checks its tokens against its key set).
 */
function identityProviderInDev(): Plugin {
  let provider: Promise<EmbeddedProvider> | null = null;
  return {
    name: 'circle:oidc-dev',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        if (!req.url || !/^\/oidc(?:[/?]|$)/.test(req.url)) return next();
        provider ??= import('./oidc/index.ts').then(({ createEmbeddedProvider }) => createEmbeddedProvider(req.socket.localPort ?? 5173));
        provider.then((p) => p.handle(req, res, `http://${req.headers.host}`)).catch(next);
      });
    },
  };
}

/**
 * Modules of the first render that lazy screens share too; without a group they scatter into small
 * chunks. The inbox (its model and the bell) is a signed-in member's, loaded after the first render.
 */
const FIRST_LOAD_MODULES =
  /node_modules[\\/](react|react-dom|scheduler|wouter|@preact[\\/]signals-(core|react)|use-sync-external-store|regexparam)[\\/]|[\\/]src[\\/](boot\.tsx|lib[\\/](?!start-failure\.)|i18n[\\/](index|en)\.|state[\\/](?!inbox[\\/])|profile[\\/](index|store|member-name)\.|session[\\/]index\.|config[\\/]|app[\\/](?!home-screen\.|layouts[\\/](AccountMenu|AdminNav|member-parts|NotificationBell|ModalDrawer)\.)|ui[\\/](theme\.|icons|snackbar[\\/]|widgets[\\/]states)|api[\\/](errors|progress|collection-names)\.|pwa[\\/](online|install|OnlineStatus|InstallButton)\.)/;

/** React itself (react, react-dom and its scheduler): bench and the budgets read its chunk by this name. */
const REACT_MODULES = /node_modules[\\/](react|react-dom|scheduler)[\\/]/;

const SYNC_EXTERNAL_STORE_SHIM = 'use-sync-external-store/shim/index.js';

/**
 * wouter and @preact/signals-react import useSyncExternalStore through its shim for React 17; React
 * 19 has its own, so the shim's fallback (a quarter of a kilobyte gzip in the first load) is left out.
 */
function reactOwnSyncExternalStore(): Plugin {
  const id = '\0circle:use-sync-external-store';
  return {
    name: 'circle:react-own-sync-external-store',
    enforce: 'pre',
    resolveId: (source) => (source === SYNC_EXTERNAL_STORE_SHIM ? id : null),
    load: (loaded) => (loaded === id ? "export { useSyncExternalStore } from 'react';\n" : null),
  };
}

/** The transforms the app's modules need, in the browser build and in the prerender alike. */
const appTransforms = () => [
  reactOwnSyncExternalStore(),
  react(),
  // Tracks signal reads in every component, so a component re-renders when a signal it read changes.
  babel({ plugins: [['module:@preact/signals-react-transform', { mode: 'auto' }]] }),
];

/**
 * The prerender's own Vite server renders modules on the server only: it has no browser to bundle
 * dependencies for. Without this it scanned the app for them, and failed on the theme stylesheet,
 * a module only this config's plugin makes ("Failed to run dependency scan").
 */
const prerenderPlugins = (): PluginOption[] => [
  ...appTransforms(),
  themeStylesheet(),
  { name: 'circle:prerender-no-dependency-scan', config: () => ({ optimizeDeps: { noDiscovery: true, include: [] } }) },
];

const defines = (command: 'build' | 'serve') => ({
  __DEV_MOCKS__: JSON.stringify(command === 'serve'),
  // Names the build in <html data-build>, so a deploy can be told from the one before it.
  __BUILD_ID__: JSON.stringify(process.env.CIRCLE_BUILD_ID ?? process.env.npm_package_version ?? 'dev'),
});

export default defineConfig(({ command }) => ({
  plugins: [
    mswWorkerInDev(),
    mockApiInDev(),
    identityProviderInDev(),
    themeStylesheet(),
    // Each page's first screen, painted from its HTML before any script runs, then hydrated.
    prerenderPages(prerenderPlugins, defines(command)),
    ...appTransforms(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src/pwa',
      filename: 'sw.ts',
      // Registration is the app's own (src/pwa/register.ts), after the first render is idle.
      injectRegister: false,
      registerType: 'prompt',
      manifest,
      pwaAssets: {
        image: 'public/logo.svg',
        preset: 'minimal-2023',
        overrideManifestIcons: true,
        includeHtmlHeadLinks: true,
        injectThemeColor: true,
      },
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png,ico,webp}'],
        // Screenshots are for install dialogs only; the UI configuration is fetched fresh (network first).
        // The catalogues other than English are cached when first used (runtime cache), not by every
        // install: the four take about 40 kB, several times what the precache budget has left.
        // What is of no use offline is cached when first used, not by every install: the OpenID
        // Connect client and the sign-in callback (both need the provider), and the icons read once
        // when the app is installed (iOS's, and the manifest's 512 px ones for the launcher and the
        // splash screen; the 192 and 64 px ones stay, a notification shown offline uses them). And the profile's conflict resolver: a conflict
        // comes from the server's answer, so it is met, and resolved, online.
        // The prerendered pages: the worker serves the app shell (index.html) in their place, and the
        // app, in the precache too, renders the route over it at once. Their markup is for a first
        // visit, which the server answers.
        // The admin screen, cached when first used: it shows what the API answered, met online. The
        // English words of the admin screens and of the conflict resolver go with their code.
        globIgnores: [
          ...Object.keys(PAGE_FILES),
          'assets/AdminScreen-*.{js,css}',
          // The tables' styles: the admin's and a conflict's, both online only.
          'assets/table-*.{js,css}',
          'assets/{en-admin,en-conflict}-*.js',
          // The transport that reports upload progress sends a save, which needs the network: offline
          // the save is kept on the device without it (and a failed load of it keeps the save too).
          'assets/transport-*.js',
          // Push notifications are turned on and off online only: their code loads with the switch.
          'assets/push-*.js',
          '**/screenshots/**',
          'assets/ui-config.json',
          'assets/{es,de,fr,zh-Hans}-*.js',
          'assets/{oidc-client,CallbackScreen,ConflictResolver,conflict-compare}-*.js',
          'apple-touch-icon-*.png',
          '{pwa,maskable-icon}-512x512.png',
        ],
      },
      devOptions: { enabled: false },
    }),
    // Each module's share of each chunk (gzip too), as a treemap: `npm run bench` links it.
    command === 'build' &&
      visualizer({ filename: 'reports/bundle/treemap.html', template: 'treemap', gzipSize: true, title: 'Circle: bundle treemap' }),
  ],
  build: {
    target: 'es2022',
    cssCodeSplit: true,
    // No preload helper: the entry must not pull the app's code in before the shell is painted.
    // The boot sits in the core chunk, so one request brings it with what it needs.
    modulePreload: false,
    sourcemap: false,
    manifest: true,
    rolldownOptions: {
      output: {
        // What the first render needs travels in few files: the entry, this shared core, the CSS
        // and the home chunk. Screens keep their own chunks.
        codeSplitting: {
          groups: [
            // Vite's small import helper stays apart, or the entry would import the core chunk for it.
            { name: 'runtime', test: /preload-helper/, priority: 2 },
            // React's part of the first load in a file of its own: it changes only with React's version
            // (a deploy of the app leaves it cached), and bench tells its bytes from the app's own.
            { name: 'react', test: REACT_MODULES, priority: 2 },
            { name: 'core', test: FIRST_LOAD_MODULES, priority: 1 },
            // The member's tokens and where requests get them: every signed-in request loads it.
            {
              name: 'credentials',
              test: /node_modules[\\/]idb-keyval[\\/]|[\\/]src[\\/]api[\\/](credentials|session-store)\./,
              priority: 1,
            },
            // What the shell shows a signed-in member only (src/app/layouts/member-parts.ts), with the avatar
            // it shares with the profile's screens, the admin's collection names and their English
            // words: one file, loaded beside the first screen when a visit starts signed in.
            {
              name: 'member',
              test: /[\\/]src[\\/](app[\\/]layouts[\\/](AccountMenu|AdminNav|member-parts)|ui[\\/]widgets[\\/](Avatar|useAvatarSrc)|api[\\/]collection-names|i18n[\\/]en-member)\./,
              priority: 1,
            },
            // The typed client and the profile's requests: the first read of the profile loads them together.
            {
              name: 'client',
              test: /node_modules[\\/]openapi-fetch[\\/]|[\\/]src[\\/](api[\\/](client|guards)|profile[\\/]requests)\./,
              priority: 1,
            },
            // Each part of the English catalogue is a file of its own, loaded beside the screen that
            // shows it: the screen's own chunk keeps its budget for code.
            {
              name: (id) => /[\\/]src[\\/]i18n[\\/](en-(?!member\.)\w+)\.ts$/.exec(id)?.[1] ?? null,
              debugName: 'english-parts',
              priority: 1,
            },
          ],
        },
      },
    },
    reportCompressedSize: false,
  },
  server: { host: '127.0.0.1', strictPort: true },
  // The dev server's first page starts the mock API (mock-api/browser.ts) from a module only this
  // config makes: its dependencies are found from these entries at start, bundled once, rather than
  // discovered on the first load, which then reloaded the page (blank for seconds).
  // The signals' runtime is imported by the Babel transform, which the scan does not run.
  optimizeDeps: { entries: ['index.html', 'src/**/*.tsx', 'mock-api/browser.ts'], include: ['@preact/signals-react/runtime'] },
  preview: { host: '127.0.0.1', strictPort: true },
  define: defines(command),
}));
