// Browser features newer than TypeScript's DOM library, and the flags the page's early script sets.
interface Window {
  ManagedMediaSource?: typeof MediaSource;
  __playerMounted?: boolean;
  __playerStartRequested?: boolean;
}

// Stylesheets are bundled by esbuild; TypeScript 6 checks side-effect imports, so it needs to know they exist.
declare module '*.css';
